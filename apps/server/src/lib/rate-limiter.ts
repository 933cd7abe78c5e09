import type { Redis } from 'ioredis';
import { type Kysely, sql } from 'kysely';
import type { Database } from '../db/schema.js';
import type { Clock } from './clock.js';

export interface RateLimitResult {
  /** Hits counted in the current window, this one included. */
  count: number;
  /** Seconds until the current window ends. */
  retryAfterSeconds: number;
}

/**
 * Fixed-window counters for throttles and lockouts (OTP sends, code guesses, voucher guesses,
 * feedback). Kept in the database by default and in Redis when `REDIS_URL` is set, so every API
 * process sees the same counts (DESIGN §1).
 */
export interface RateLimiter {
  /** Counts one hit for `key` in a window of `windowSeconds`. */
  hit(key: string, windowSeconds: number): Promise<RateLimitResult>;
  /** Reads the count without adding to it. */
  peek(key: string, windowSeconds: number): Promise<RateLimitResult>;
  /** Forgets `key` in the current window (e.g. after a successful login). */
  reset(key: string, windowSeconds: number): Promise<void>;
}

declare module '../db/schema.js' {
  interface Database {
    rate_limits: { key: string; window_start: Date; hits: number };
  }
}

function windowOf(now: Date, windowSeconds: number) {
  const windowMs = windowSeconds * 1000;
  const start = Math.floor(now.getTime() / windowMs) * windowMs;
  return { start, retryAfterSeconds: Math.max(1, Math.ceil((start + windowMs - now.getTime()) / 1000)) };
}

export class DatabaseRateLimiter implements RateLimiter {
  constructor(
    private readonly db: Kysely<Database>,
    private readonly clock: Clock,
  ) {}

  async hit(key: string, windowSeconds: number): Promise<RateLimitResult> {
    const { start, retryAfterSeconds } = windowOf(this.clock.now(), windowSeconds);
    const windowStart = new Date(start);
    const row = await this.db
      .insertInto('rate_limits')
      .values({ key, window_start: windowStart, hits: 1 })
      .onConflict((oc) =>
        oc.column('key').doUpdateSet({
          hits: sql<number>`case when rate_limits.window_start = excluded.window_start then rate_limits.hits + 1 else 1 end`,
          window_start: (eb) => eb.ref('excluded.window_start'),
        }),
      )
      .returning('hits')
      .executeTakeFirstOrThrow();
    return { count: row.hits, retryAfterSeconds };
  }

  async peek(key: string, windowSeconds: number): Promise<RateLimitResult> {
    const { start, retryAfterSeconds } = windowOf(this.clock.now(), windowSeconds);
    const row = await this.db
      .selectFrom('rate_limits')
      .select('hits')
      .where('key', '=', key)
      .where('window_start', '=', new Date(start))
      .executeTakeFirst();
    return { count: row?.hits ?? 0, retryAfterSeconds };
  }

  async reset(key: string): Promise<void> {
    await this.db.deleteFrom('rate_limits').where('key', '=', key).execute();
  }
}

export class RedisRateLimiter implements RateLimiter {
  constructor(
    private readonly redis: Redis,
    private readonly clock: Clock,
  ) {}

  #key(key: string, start: number) {
    return `rl:${key}:${start}`;
  }

  async hit(key: string, windowSeconds: number): Promise<RateLimitResult> {
    const { start, retryAfterSeconds } = windowOf(this.clock.now(), windowSeconds);
    const redisKey = this.#key(key, start);
    const [[, count]] = (await this.redis
      .multi()
      .incr(redisKey)
      .expire(redisKey, windowSeconds + 1)
      .exec()) as [[unknown, number], [unknown, number]];
    return { count, retryAfterSeconds };
  }

  async peek(key: string, windowSeconds: number): Promise<RateLimitResult> {
    const { start, retryAfterSeconds } = windowOf(this.clock.now(), windowSeconds);
    const count = Number((await this.redis.get(this.#key(key, start))) ?? 0);
    return { count, retryAfterSeconds };
  }

  async reset(key: string, windowSeconds: number): Promise<void> {
    const { start } = windowOf(this.clock.now(), windowSeconds);
    await this.redis.del(this.#key(key, start));
  }
}
