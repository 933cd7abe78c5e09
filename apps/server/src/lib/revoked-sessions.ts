import type { Redis } from 'ioredis';
import type { Generated, Kysely } from 'kysely';
import type { Database } from '../db/schema.js';
import { whileReachable } from './throttle.js';

declare module '../db/schema.js' {
  interface Database {
    revoked_sessions: { session_id: string; expires_at: Date; recorded_at: Generated<Date> };
  }
}

/** How often each process looks for sign-ins ended by any process: the most a revocation waits. */
export const REVOCATION_POLL_MS = 1000;
/** How often it reads every live revocation again, whatever the incremental reads found. */
const FULL_READ_EVERY_MS = 60_000;
/** Kept this long past its last token's expiry: the processes' clocks may differ by seconds. */
const EXPIRY_MARGIN_MS = 60_000;
/**
 * An incremental read of the database also takes rows recorded this long before the newest one
 * seen: a transaction that took its timestamp earlier may commit after that row.
 */
const COMMIT_OVERLAP_MS = 10_000;

export interface Revocation {
  sessionId: string;
  /** When the sign-in's last access token expires (ms since the epoch). */
  until: number;
}

/** Where revocations are shared between processes: the database, or Redis when `REDIS_URL` is set. */
export interface RevocationStore {
  /** Records ended sign-ins; the database store writes through `db`, the caller's transaction. */
  add(db: Kysely<Database>, sessionIds: readonly string[], until: number): Promise<void>;
  /** The revocations recorded since this store's last read, or every one kept for `all`. */
  read(all: boolean): Promise<Revocation[]>;
  /** Forgets the revocations whose tokens all expired before `before`. */
  prune(before: number): Promise<void>;
}

export class DatabaseRevocationStore implements RevocationStore {
  #newestSeen: Date | undefined;

  constructor(private readonly db: Kysely<Database>) {}

  async add(db: Kysely<Database>, sessionIds: readonly string[], until: number): Promise<void> {
    await db
      .insertInto('revoked_sessions')
      .values(sessionIds.map((sessionId) => ({ session_id: sessionId, expires_at: new Date(until) })))
      .onConflict((oc) => oc.column('session_id').doNothing())
      .execute();
  }

  async read(all: boolean): Promise<Revocation[]> {
    let query = this.db.selectFrom('revoked_sessions').select(['session_id', 'expires_at', 'recorded_at']);
    if (!all && this.#newestSeen) {
      query = query.where('recorded_at', '>', new Date(this.#newestSeen.getTime() - COMMIT_OVERLAP_MS));
    }
    const rows = await query.execute();
    for (const row of rows) {
      if (!this.#newestSeen || row.recorded_at > this.#newestSeen) this.#newestSeen = row.recorded_at;
    }
    return rows.map((row) => ({ sessionId: row.session_id, until: row.expires_at.getTime() }));
  }

  async prune(before: number): Promise<void> {
    await this.db.deleteFrom('revoked_sessions').where('expires_at', '<', new Date(before)).execute();
  }
}

/**
 * In Redis each revocation gets the next number of a counter, in the same script that records it,
 * so a reader that asks for the numbers after the last one it saw misses none.
 * KEYS: log (id → number), until (id → expiry), counter. ARGV: expiry, ids…
 */
const ADD_SCRIPT = `
for i = 2, #ARGV do
  if not redis.call('ZSCORE', KEYS[2], ARGV[i]) then
    redis.call('ZADD', KEYS[1], redis.call('INCR', KEYS[3]), ARGV[i])
    redis.call('ZADD', KEYS[2], ARGV[1], ARGV[i])
  end
end
return 0
`;

/** KEYS as above. ARGV: the last number read, how many at most. Answers id, number, expiry, … */
const READ_SCRIPT = `
local after = tonumber(ARGV[1])
if after > tonumber(redis.call('GET', KEYS[3]) or '0') then after = 0 end
local rows = redis.call('ZRANGEBYSCORE', KEYS[1], '(' .. after, '+inf', 'WITHSCORES', 'LIMIT', 0, tonumber(ARGV[2]))
local out = {}
for i = 1, #rows, 2 do
  out[#out + 1] = rows[i]
  out[#out + 1] = rows[i + 1]
  out[#out + 1] = redis.call('ZSCORE', KEYS[2], rows[i]) or '0'
end
return out
`;

/** KEYS as above. ARGV: prune what expired before this. */
const PRUNE_SCRIPT = `
local expired = redis.call('ZRANGEBYSCORE', KEYS[2], '-inf', '(' .. ARGV[1], 'LIMIT', 0, 10000)
for _, id in ipairs(expired) do
  redis.call('ZREM', KEYS[1], id)
  redis.call('ZREM', KEYS[2], id)
end
return #expired
`;

interface RevocationCommands {
  revokedSessionsAdd(
    log: string,
    until: string,
    counter: string,
    ...args: (string | number)[]
  ): Promise<number>;
  revokedSessionsRead(
    log: string,
    until: string,
    counter: string,
    after: number,
    limit: number,
  ): Promise<string[]>;
  revokedSessionsPrune(log: string, until: string, counter: string, before: number): Promise<number>;
}

const READ_BATCH = 5000;

export class RedisRevocationStore implements RevocationStore {
  readonly #redis: Redis & RevocationCommands;
  readonly #keys: [string, string, string];
  #lastRead = 0;

  constructor(redis: Redis, prefix = 'revoked-sessions:') {
    redis.defineCommand('revokedSessionsAdd', { numberOfKeys: 3, lua: ADD_SCRIPT });
    redis.defineCommand('revokedSessionsRead', { numberOfKeys: 3, lua: READ_SCRIPT });
    redis.defineCommand('revokedSessionsPrune', { numberOfKeys: 3, lua: PRUNE_SCRIPT });
    this.#redis = redis as Redis & RevocationCommands;
    this.#keys = [`${prefix}log`, `${prefix}until`, `${prefix}counter`];
  }

  async add(_db: Kysely<Database>, sessionIds: readonly string[], until: number): Promise<void> {
    // As the limits do: Redis unreachable is an outage to retry (503), not a 500. Nothing was
    // revoked yet (tokens.ts records first), so the retry ends every sign-in.
    await whileReachable(() => this.#redis.revokedSessionsAdd(...this.#keys, until, ...sessionIds));
  }

  async read(all: boolean): Promise<Revocation[]> {
    if (all) this.#lastRead = 0;
    const revocations: Revocation[] = [];
    for (;;) {
      const rows = await this.#redis.revokedSessionsRead(...this.#keys, this.#lastRead, READ_BATCH);
      for (let i = 0; i + 2 < rows.length; i += 3) {
        revocations.push({ sessionId: rows[i] as string, until: Number(rows[i + 2]) });
        this.#lastRead = Number(rows[i + 1]);
      }
      if (rows.length < READ_BATCH * 3) return revocations;
    }
  }

  async prune(before: number): Promise<void> {
    await this.#redis.revokedSessionsPrune(...this.#keys, before);
  }
}

/**
 * The sign-ins that ended (logout, a device signed out, a password change or reset, a reused
 * refresh token) while their stateless access tokens may still be unexpired (security.md). Each
 * process keeps the set in memory, so the check on every authenticated call is one `Map` lookup
 * and no round trip; the set follows the shared store once a second (REVOCATION_POLL_MS), so a
 * sign-in ended on any process is refused on all of them within about a second, and at once on
 * the process that ended it.
 */
export class RevokedSessions {
  readonly #ended = new Map<string, number>();
  #timer: NodeJS.Timeout | undefined;
  #stopped = false;
  #lastFullRead = 0;
  #failing = false;
  #started = false;
  /** Until the first read has answered (or failed). */
  #loading: Promise<void> | undefined;

  constructor(
    private readonly store: RevocationStore,
    private readonly report: (message: string, error: unknown) => void = () => {},
    private readonly pollMs = REVOCATION_POLL_MS,
  ) {}

  /** Whether the sign-in has ended: the check of every authenticated call. */
  has(sessionId: string): boolean {
    return this.#ended.has(sessionId);
  }

  /**
   * Records ended sign-ins whose access tokens may live until `until`: at once in this process,
   * and in the shared store (through `db`, the caller's transaction, when that is the database).
   */
  async record(db: Kysely<Database>, sessionIds: readonly string[], until: Date): Promise<void> {
    if (sessionIds.length === 0) return;
    for (const sessionId of sessionIds) this.#ended.set(sessionId, until.getTime());
    await this.store.add(db, sessionIds, until.getTime());
  }

  /**
   * Follows the shared store from the first call that needs it, once `ready` (the migrated
   * database) settles: a process that never checks a token (a command of the admin CLI) never
   * reads. Answers a promise while the first read runs, which that call and any meanwhile wait
   * for; nothing after (one boolean test per call).
   */
  following(ready: Promise<void>): Promise<void> | undefined {
    if (!this.#started && !this.#stopped) {
      this.#started = true;
      this.#loading = ready
        .then(() => this.refresh())
        .catch(() => {})
        .finally(() => {
          this.#loading = undefined;
          this.#schedule();
        });
    }
    return this.#loading;
  }

  /** One look at the shared store (tests call it to skip the wait). */
  async refresh(): Promise<void> {
    const now = Date.now();
    const full = now - this.#lastFullRead >= FULL_READ_EVERY_MS;
    try {
      for (const { sessionId, until } of await this.store.read(full)) this.#ended.set(sessionId, until);
      if (full) {
        this.#lastFullRead = now;
        const before = now - EXPIRY_MARGIN_MS;
        for (const [sessionId, until] of this.#ended) if (until < before) this.#ended.delete(sessionId);
        await this.store.prune(before);
      }
      this.#failing = false;
    } catch (error) {
      // One line per outage; the next look tries again.
      if (!this.#failing && !this.#stopped) {
        this.report('the revoked sign-ins could not be read; retrying', error);
      }
      this.#failing = true;
    }
  }

  #schedule(): void {
    if (this.#stopped) return;
    this.#timer = setTimeout(() => {
      void this.refresh().finally(() => this.#schedule());
    }, this.pollMs);
    this.#timer.unref();
  }

  stop(): void {
    this.#stopped = true;
    clearTimeout(this.#timer);
  }
}
