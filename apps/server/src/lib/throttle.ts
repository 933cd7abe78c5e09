import { ERROR_CODES } from '@tunes/shared/errors';
import { type Redis, ReplyError } from 'ioredis';
import { type Kysely, sql } from 'kysely';
import type { Database } from '../db/schema.js';
import type { Clock } from './clock.js';
import { AppError, tooManyRequests } from './errors.js';

/** A limit: at most `limit` takes of one key within `windowSeconds` of the first take. */
export interface Limit {
  limit: number;
  windowSeconds: number;
  /** What a refused caller is told (English; the site shows its own translated text). */
  message?: string;
  /**
   * Which limit refused, where the site tells them apart: the refusal's `reason`, beside its
   * `error` (`too_many_requests` for every 429, as the API always answered).
   */
  reason?: string;
}

export interface TakeResult {
  allowed: boolean;
  /** Takes counted in the current window, this one included when allowed. */
  count: number;
  /** Seconds until the window ends and the key is free again. */
  retryAfterSeconds: number;
}

/**
 * The one atomic throttle every limit goes through (security.md): code tries, resends, sends per
 * recipient, client and hour, password tries, voucher tries, feedback, checkouts.
 *
 * `take` counts and decides in one statement, so 1,000 requests at once are judged exactly like
 * 1,000 in a row: at most `limit` are allowed. A refused take is not counted, so hammering a
 * closed key does not keep it closed longer. The window opens at a key's first take (not on a
 * clock boundary), so a limit never doubles across a boundary. Kept in the database by default
 * and in Redis when `REDIS_URL` is set, so every API process shares the counts (architecture.md).
 */
export interface Throttle {
  take(key: string, limit: Limit): Promise<TakeResult>;
  /**
   * Gives back one take of a live window: a check that counted itself before it knew the
   * outcome (a code or password that turned out right) refunds itself, so only failures stay.
   */
  refund(key: string): Promise<void>;
  /** Frees `key` (e.g. a correct password clears that account's failed tries from that address). */
  reset(key: string): Promise<void>;
  /**
   * Seconds until `key` frees for `limit`, 0 when it is not spent; counts nothing. Only to choose
   * what a caller is told (security.md "Sends": no challenge to solve when the hard cap is spent
   * anyway), never to allow anything: allowing is `take`'s alone.
   */
  secondsUntilFree(key: string, limit: Limit): Promise<number>;
  /**
   * Forgets windows that ended before `now`, at most `batch` of them, and says how many went.
   * Keys are per address, number, code or solved challenge, so without it they pile up; Redis
   * expires its own.
   */
  sweep(now: Date, batch?: number): Promise<number>;
}

/** Ended windows forgotten per sweep (one per job scan): a scan's other work is not held up. */
const SWEEP_BATCH = 5000;

/** The 429 of a spent `limit`, with `Retry-After` naming when it frees up. */
export const refusalOf = (limit: Limit, retryAfterSeconds: number) =>
  tooManyRequests(retryAfterSeconds, limit.message, limit.reason ? { reason: limit.reason } : {});

/** Takes one from `key` or throws 429 with `Retry-After` naming when it frees up. */
export async function enforce(throttle: Throttle, key: string, limit: Limit): Promise<TakeResult> {
  const taken = await throttle.take(key, limit);
  if (!taken.allowed) throw refusalOf(limit, taken.retryAfterSeconds);
  return taken;
}

declare module '../db/schema.js' {
  interface Database {
    throttles: { key: string; hits: number; expires_at: Date };
  }
}

const secondsUntil = (expiresAt: Date, now: Date) =>
  Math.max(1, Math.ceil((expiresAt.getTime() - now.getTime()) / 1000));

export class DatabaseThrottle implements Throttle {
  constructor(
    private readonly db: Kysely<Database>,
    private readonly clock: Clock,
  ) {}

  async take(key: string, { limit, windowSeconds }: Limit): Promise<TakeResult> {
    const now = this.clock.now();
    const expiresAt = new Date(now.getTime() + windowSeconds * 1000);
    // One upsert: a live window below its limit counts one more; an ended window starts again at 1;
    // a full live window matches the WHERE of the update, so no row comes back and nothing changes.
    const taken = await this.db
      .insertInto('throttles')
      .values({ key, hits: 1, expires_at: expiresAt })
      .onConflict((oc) =>
        oc
          .column('key')
          .doUpdateSet({
            hits: sql<number>`case when throttles.expires_at > ${now} then throttles.hits + 1 else 1 end`,
            expires_at: sql<Date>`case when throttles.expires_at > ${now} then throttles.expires_at else excluded.expires_at end`,
          })
          .where((eb) => eb.or([eb('throttles.expires_at', '<=', now), eb('throttles.hits', '<', limit)])),
      )
      .returning(['hits', 'expires_at'])
      .executeTakeFirst();
    if (taken)
      return { allowed: true, count: taken.hits, retryAfterSeconds: secondsUntil(taken.expires_at, now) };

    const full = await this.db
      .selectFrom('throttles')
      .select(['hits', 'expires_at'])
      .where('key', '=', key)
      .executeTakeFirst();
    return {
      allowed: false,
      count: full?.hits ?? limit,
      retryAfterSeconds: full ? secondsUntil(full.expires_at, now) : windowSeconds,
    };
  }

  async refund(key: string): Promise<void> {
    await this.db
      .updateTable('throttles')
      .set({ hits: sql<number>`hits - 1` })
      .where('key', '=', key)
      .where('hits', '>', 0)
      .where('expires_at', '>', this.clock.now())
      .execute();
  }

  async reset(key: string): Promise<void> {
    await this.db.deleteFrom('throttles').where('key', '=', key).execute();
  }

  async sweep(now: Date, batch = SWEEP_BATCH): Promise<number> {
    const ended = this.db
      .selectFrom('throttles')
      .select('key')
      .where('expires_at', '<=', now)
      .orderBy('expires_at')
      .limit(batch);
    const swept = await this.db.deleteFrom('throttles').where('key', 'in', ended).executeTakeFirst();
    return Number(swept.numDeletedRows);
  }

  async secondsUntilFree(key: string, { limit }: Limit): Promise<number> {
    const now = this.clock.now();
    const live = await this.db
      .selectFrom('throttles')
      .select(['hits', 'expires_at'])
      .where('key', '=', key)
      .where('expires_at', '>', now)
      .executeTakeFirst();
    return live && live.hits >= limit ? secondsUntil(live.expires_at, now) : 0;
  }
}

/**
 * The same rule as one Lua script, which Redis runs atomically. Window ends are kept in the hash
 * (from the injected clock, so tests and `/dev/clock` move them); the key's own TTL only
 * collects garbage.
 */
const TAKE_SCRIPT = `
local now = tonumber(ARGV[1])
local limit = tonumber(ARGV[2])
local window = tonumber(ARGV[3])
local hits = 0
local expires = tonumber(redis.call('HGET', KEYS[1], 'e') or '0')
if expires > now then
  hits = tonumber(redis.call('HGET', KEYS[1], 'h') or '0')
else
  expires = now + window
end
if hits >= limit then return {0, hits, expires} end
hits = hits + 1
redis.call('HSET', KEYS[1], 'h', hits, 'e', expires)
redis.call('PEXPIRE', KEYS[1], expires - now + 1000)
return {1, hits, expires}
`;

const REFUND_SCRIPT = `
local expires = tonumber(redis.call('HGET', KEYS[1], 'e') or '0')
local hits = tonumber(redis.call('HGET', KEYS[1], 'h') or '0')
if expires > tonumber(ARGV[1]) and hits > 0 then redis.call('HSET', KEYS[1], 'h', hits - 1) end
return 0
`;

interface ThrottleCommands {
  throttleTake(key: string, now: number, limit: number, windowMs: number): Promise<[number, number, number]>;
  throttleRefund(key: string, now: number): Promise<number>;
}

export class RedisThrottle implements Throttle {
  readonly #redis: Redis & ThrottleCommands;

  constructor(
    redis: Redis,
    private readonly clock: Clock,
    private readonly prefix = 'throttle:',
  ) {
    redis.defineCommand('throttleTake', { numberOfKeys: 1, lua: TAKE_SCRIPT });
    redis.defineCommand('throttleRefund', { numberOfKeys: 1, lua: REFUND_SCRIPT });
    this.#redis = redis as Redis & ThrottleCommands;
  }

  async take(key: string, { limit, windowSeconds }: Limit): Promise<TakeResult> {
    const now = this.clock.now();
    const [allowed, count, expires] = await whileReachable(() =>
      this.#redis.throttleTake(this.prefix + key, now.getTime(), limit, windowSeconds * 1000),
    );
    return { allowed: allowed === 1, count, retryAfterSeconds: secondsUntil(new Date(expires), now) };
  }

  async refund(key: string): Promise<void> {
    await whileReachable(() => this.#redis.throttleRefund(this.prefix + key, this.clock.now().getTime()));
  }

  async reset(key: string): Promise<void> {
    await whileReachable(() => this.#redis.del(this.prefix + key));
  }

  async sweep(): Promise<number> {
    // Each key carries its own expiry (the take script's PEXPIRE): Redis forgets it.
    return 0;
  }

  async secondsUntilFree(key: string, { limit }: Limit): Promise<number> {
    const now = this.clock.now();
    const [hits, expires] = await whileReachable(() => this.#redis.hmget(this.prefix + key, 'h', 'e'));
    const endsAt = Number(expires ?? 0);
    return endsAt > now.getTime() && Number(hits ?? 0) >= limit ? secondsUntil(new Date(endsAt), now) : 0;
  }
}

/** Seconds a client is asked to wait while the limits' store is unreachable. */
const OUTAGE_RETRY_SECONDS = 5;

/**
 * Limits fail closed: with Redis unreachable nothing is counted, so nothing limited is done —
 * the call answers 503 with Retry-After (an outage, not the client's fault), never a 500 and
 * never a pass. A Redis error answer (a script bug) stays an error.
 */
export async function whileReachable<T>(command: () => Promise<T>): Promise<T> {
  try {
    return await command();
  } catch (error) {
    if (error instanceof ReplyError) throw error;
    throw new AppError(
      503,
      ERROR_CODES.unavailable,
      'The service is temporarily unavailable. Please try again shortly.',
      {},
      { 'retry-after': String(OUTAGE_RETRY_SECONDS) },
    );
  }
}
