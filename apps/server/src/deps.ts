import { Redis } from 'ioredis';
import type { Kysely } from 'kysely';
import type { Config } from './config.js';
import type { DatabaseKind } from './db/database.js';
import type { Database } from './db/schema.js';
import { AccessTokens } from './lib/access-tokens.js';
import { type Clock, systemClock } from './lib/clock.js';
import { DatabaseThrottle, RedisThrottle, type Throttle } from './lib/throttle.js';

/**
 * What route handlers and services depend on, built once per process and reached through
 * `app.deps`. Tests build it with their own database and clock.
 */
export interface Deps {
  config: Config;
  db: Kysely<Database>;
  dbKind: DatabaseKind;
  clock: Clock;
  /** Settles once the database is migrated and seeded; calls that need it wait until then. */
  databaseReady: Promise<void>;
  accessTokens: AccessTokens;
  /** Every limit goes through this (lib/limits.ts lists them). */
  throttle: Throttle;
  /** The shared Redis connection when `REDIS_URL` is set (throttles, content publish events). */
  redis?: Redis;
  /** The PostgreSQL pool's connections (metrics); absent on PGlite. */
  dbPoolStats?: () => { total: number; idle: number; waiting: number };
  /** Releases what the deps opened themselves (Redis); the database belongs to the caller. */
  close(): Promise<void>;
}

export interface DepsInput {
  config: Config;
  db: Kysely<Database>;
  dbKind: DatabaseKind;
  clock?: Clock;
  databaseReady?: Promise<void>;
  dbPoolStats?: () => { total: number; idle: number; waiting: number };
}

export function createDeps({
  config,
  db,
  dbKind,
  clock = systemClock,
  databaseReady = Promise.resolve(),
  dbPoolStats,
}: DepsInput): Deps {
  const redis = config.REDIS_URL
    ? new Redis(config.REDIS_URL, { lazyConnect: false, maxRetriesPerRequest: 2, enableOfflineQueue: true })
    : undefined;
  if (redis) {
    // ioredis reports every failed reconnect; one line per outage is enough (limits answer 503
    // meanwhile, lib/throttle.ts), and without a listener each would be an unhandled error.
    let down = false;
    redis.on('error', (error: Error) => {
      if (down) return;
      down = true;
      process.stderr.write(
        `${JSON.stringify({ level: 50, time: Date.now(), msg: 'redis unreachable; limited calls answer 503', err: error.message })}\n`,
      );
    });
    redis.on('ready', () => {
      down = false;
    });
  }
  return {
    config,
    db,
    dbKind,
    clock,
    databaseReady,
    ...(dbPoolStats ? { dbPoolStats } : {}),
    ...(redis ? { redis } : {}),
    accessTokens: new AccessTokens(config.JWT_SECRET, config.ACCESS_TOKEN_TTL_SECONDS),
    throttle: redis ? new RedisThrottle(redis, clock) : new DatabaseThrottle(db, clock),
    close: async () => {
      await redis?.quit();
    },
  };
}
