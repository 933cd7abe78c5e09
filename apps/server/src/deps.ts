import type { FastifyInstance } from 'fastify';
import { Redis } from 'ioredis';
import type { Kysely } from 'kysely';
import type { Config } from './config.js';
import type { DatabaseKind } from './db/database.js';
import type { Database } from './db/schema.js';
import { AccessTokens } from './lib/access-tokens.js';
import { type Clock, systemClock } from './lib/clock.js';
import { DatabaseRevocationStore, RedisRevocationStore, RevokedSessions } from './lib/revoked-sessions.js';
import { DatabaseThrottle, RedisThrottle, type Throttle } from './lib/throttle.js';
import { createProviders, type Providers } from './modules/providers/providers.js';
import { JsonTransport } from './modules/providers/transport.js';

declare module 'fastify' {
  interface FastifyInstance {
    /** The one dependencies object every route hands its services (decorated by buildApp). */
    deps: Deps;
  }
}

/** What exists only once the app is built: its in-process answers and its log (Deps.servedBy). */
export type ServingApp = Pick<FastifyInstance, 'inject' | 'log'>;

/**
 * What route handlers and services depend on, built once per process and reached through
 * `app.deps`. Tests build it with their own database and clock. The providers' adapters
 * (`paymentGateway`, `qpay`, `ebarimt`) are made here too, once, so a process shares one QPay token.
 */
export interface Deps extends Providers {
  config: Config;
  db: Kysely<Database>;
  dbKind: DatabaseKind;
  clock: Clock;
  /** Settles once the database is migrated and seeded; calls that need it wait until then. */
  databaseReady: Promise<void>;
  accessTokens: AccessTokens;
  /** Every limit goes through this (lib/limits.ts lists them). */
  throttle: Throttle;
  /** Sign-ins that ended: their access tokens are refused on every process within seconds. */
  revokedSessions: RevokedSessions;
  /** The shared Redis connection when `REDIS_URL` is set (throttles, content publish events). */
  redis?: Redis;
  /** The PostgreSQL pool's connections (metrics); absent on PGlite. */
  dbPoolStats?: () => { total: number; idle: number; waiting: number };
  /** How the adapters reach the providers (and this server's own origin, in process). */
  transport: JsonTransport;
  /** Reports what must not fail a payment (a lost log line, a provider hiccup): to the app's log. */
  reportError(error: unknown, message: string): void;
  /**
   * Hands the deps what exists only once the app is built (buildApp calls it): the app answers
   * calls to its own origin in process (the built-in sandboxes and their callbacks), and its log
   * takes what `reportError` reports. Answers the undo, for when the app closes; with several
   * apps on one deps, the first still open serves.
   */
  servedBy(app: ServingApp): () => void;
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
  /** Where `reportError` reports regardless of any app (an admin command prints it). */
  reportError?: (error: unknown, message: string) => void;
}

/** One JSON line on standard error, as the log writes it, when no app's log is there to take it. */
function errorLine(msg: string, error: unknown): void {
  process.stderr.write(
    `${JSON.stringify({ level: 50, time: Date.now(), msg, err: (error as Error)?.message ?? String(error) })}\n`,
  );
}

export function createDeps({
  config,
  db,
  dbKind,
  clock = systemClock,
  databaseReady = Promise.resolve(),
  dbPoolStats,
  reportError,
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
  const revokedSessions = new RevokedSessions(
    redis ? new RedisRevocationStore(redis) : new DatabaseRevocationStore(db),
    (msg, error) =>
      process.stderr.write(
        `${JSON.stringify({ level: 50, time: Date.now(), msg, err: (error as Error).message })}\n`,
      ),
  );
  const serving: ServingApp[] = [];
  const transport = new JsonTransport(config.PUBLIC_URL, () => serving[0]);
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
    revokedSessions,
    transport,
    ...createProviders({ config, clock }, transport.call),
    reportError:
      reportError ??
      ((error, message) => {
        const app = serving[0];
        if (app) app.log.error({ err: error }, message);
        else errorLine(message, error);
      }),
    servedBy: (app) => {
      serving.push(app);
      return () => {
        const at = serving.indexOf(app);
        if (at >= 0) serving.splice(at, 1);
      };
    },
    close: async () => {
      revokedSessions.stop();
      await redis?.quit();
    },
  };
}
