import { CompiledQuery, type Kysely, sql } from 'kysely';
import PgBoss from 'pg-boss';
import type { DatabaseKind } from '../db/database.js';
import type { Database } from '../db/schema.js';
import type { Clock } from './clock.js';
import type { ErrorLog } from './logging.js';
import { jobFailures, jobsRun } from './metrics.js';

/**
 * One kind of background work (a renewal step, a reminder, a redelivery). The work's own tables
 * say what is due, with the business clock; the queue hands each due item to one worker of one
 * process. A job that runs twice, or is lost in a crash and found due again, does no harm:
 * every `run` is idempotent by the state it changes.
 */
export interface JobKind {
  name: string;
  /** Keys of the items due at `now`, in key order after `after`, at most `limit`. */
  findDue(now: Date, limit: number, after: string | undefined): Promise<string[]>;
  run(key: string, log: ErrorLog): Promise<unknown>;
}

/** Work done in the moment before the items are looked for (bulk updates, no per-item job). */
export type ScanStep = (now: Date) => Promise<unknown>;

export interface RunDueReport {
  ran: { name: string; count: number }[];
}

const SCAN_JOB = 'jobs.scan';
/**
 * A scan left active by a process that died mid-scan is failed by pg-boss's maintenance after
 * this long (its default is 15 minutes, during which the stately queue would start no other
 * scan). A slow scan that outlives it only means a second scan runs: every item is claimed once.
 */
const SCAN_EXPIRE_SECONDS = 30;
/** How often one of the processes runs pg-boss's maintenance (expiry of such jobs). */
const MAINTENANCE_SECONDS = 10;
/**
 * A job left active by a process that died (killed mid-renewal) is failed and retried after
 * this long instead of pg-boss's 15 minutes, during which the stately queue would start no other
 * job of its item; with the maintenance interval and the retry delay it runs again within about
 * a minute and a quarter. A job that really runs longer only runs twice: every step is claimed
 * once in the database (the renewal's UPDATE, the charge's invoice and attempt).
 */
const JOB_EXPIRE_SECONDS = 60;
const RETRY_DELAY_SECONDS = 5;
const QUEUE_OPTIONS = {
  policy: 'stately',
  retryLimit: 2,
  retryDelay: RETRY_DELAY_SECONDS,
  expireInSeconds: JOB_EXPIRE_SECONDS,
} as const;
/** The advisory lock under which processes start the queue one at a time (any fixed number). */
const START_LOCK_KEY = 7_310_482_913;
/**
 * The order pg-boss takes waiting jobs in (`fetch`: `order by priority desc, created_on, id`),
 * as an index of its job table (partitioned by queue: a queue made later gets it too). Its own
 * index for fetching is on `(name, start_after)`, so every fetch read and sorted all the jobs
 * waiting in the queue to take the first few: with 100,000 renewals due on a day, enqueued at
 * once, each fetch of 200 sorted up to 100,000 rows (75 million rows read for the reminders alone,
 * docs/performance.md). In this order a fetch reads the jobs it takes.
 */
const FETCH_ORDER_INDEX = `create index if not exists job_fetch_order on pgboss.job
  (name, priority desc, created_on, id) where state < 'active'`;
const PAGE = 1000;
/** How long `runDue` waits for jobs held elsewhere (a worker, a dead process's until expiry). */
const RUN_DUE_DEADLINE_MS = 120_000;
const BATCH = 50;
/** Items of one kind run at once in one process. */
const CONCURRENCY = 8;

/**
 * pg-boss reaches the database through the app's Kysely, so PGlite and PostgreSQL alike serve it.
 * Some of its commands are several statements in an explicit transaction (its install, which two
 * processes may race for); when one fails, the connection is rolled back before it returns to
 * the pool, so the failure never leaks into the next request's query.
 */
function kyselyAdapter(db: Kysely<Database>): PgBoss.Db {
  return {
    executeSql: (text, values) =>
      db.connection().execute(async (connection) => {
        try {
          const result = await connection.executeQuery(CompiledQuery.raw(text, values ?? []));
          return { rows: result.rows as unknown[] };
        } catch (error) {
          await connection.executeQuery(CompiledQuery.raw('rollback')).catch(() => {});
          throw error;
        }
      }),
  };
}

async function eachLimited<T>(items: T[], limit: number, run: (item: T) => Promise<void>): Promise<void> {
  let next = 0;
  const lanes = Array.from({ length: Math.min(limit, items.length) }, async () => {
    while (next < items.length) {
      const item = items[next++] as T;
      await run(item);
    }
  });
  await Promise.all(lanes);
}

/**
 * The job queue of product.md §12: pg-boss (a maintained queue on PostgreSQL) in the app's own
 * database. A scan finds what is due by the business clock and enqueues one job per item, kept
 * once while it waits (`stately` queues keyed by the item); workers in every process take jobs
 * with `SKIP LOCKED`, so N processes share them and each job runs once. The scan itself is one
 * job per interval across all processes. `runDue` (POST /dev/jobs/run-due, the admin command)
 * scans and drains the queues in this process and answers when they are empty.
 */
export class JobQueue {
  readonly #db: Kysely<Database>;
  readonly #dbKind: DatabaseKind;
  readonly #clock: Clock;
  readonly #log: ErrorLog;
  readonly #kinds: JobKind[] = [];
  readonly #scanSteps: ScanStep[] = [];
  #boss: PgBoss | undefined;
  #starting: Promise<PgBoss> | undefined;
  #timer: NodeJS.Timeout | undefined;
  #stopped = false;

  constructor(db: Kysely<Database>, dbKind: DatabaseKind, clock: Clock, log: ErrorLog) {
    this.#db = db;
    this.#dbKind = dbKind;
    this.#clock = clock;
    this.#log = log;
  }

  register(kind: JobKind): void {
    this.#kinds.push(kind);
  }

  beforeScan(step: ScanStep): void {
    this.#scanSteps.push(step);
  }

  /**
   * pg-boss started on first use (its schema and queues are made then), once. On PostgreSQL the
   * processes that start together take turns under an advisory lock: pg-boss's install and queue
   * creation deadlock when two run them at once.
   */
  #started(): Promise<PgBoss> {
    this.#starting ??= this.#oneAtATime(async () => {
      const boss = new PgBoss({
        db: kyselyAdapter(this.#db),
        schema: 'pgboss',
        // Due-ness is ours (business clock); pg-boss's own cron is not used.
        schedule: false,
        maintenanceIntervalSeconds: MAINTENANCE_SECONDS,
      });
      boss.on('error', (error) => this.#log.error({ err: error }, 'job queue error'));
      await boss.start();
      await sql.raw(FETCH_ORDER_INDEX).execute(this.#db);
      for (const name of [SCAN_JOB, ...this.#kinds.map((kind) => kind.name)]) {
        const queue = await boss.getQueue(name);
        if (!queue) await boss.createQueue(name, { name, ...QUEUE_OPTIONS });
        else if (queue.expireInSeconds !== JOB_EXPIRE_SECONDS || queue.retryDelay !== RETRY_DELAY_SECONDS) {
          // Queues made by an earlier version kept pg-boss's 15-minute expiry.
          await boss.updateQueue(name, { name, ...QUEUE_OPTIONS });
        }
      }
      this.#boss = boss;
      return boss;
    });
    return this.#starting;
  }

  async #oneAtATime<T>(work: () => Promise<T>): Promise<T> {
    // PGlite is one process with one connection: nothing to take turns with.
    if (this.#dbKind !== 'postgres') return work();
    return this.#db.connection().execute(async (connection) => {
      await sql`select pg_advisory_lock(${START_LOCK_KEY})`.execute(connection);
      try {
        return await work();
      } finally {
        await sql`select pg_advisory_unlock(${START_LOCK_KEY})`.execute(connection);
      }
    });
  }

  /**
   * Background work in this process: every `intervalSeconds` a scan is asked for (one per
   * interval across all processes), and workers take the jobs as they come.
   */
  async startWorkers(intervalSeconds: number): Promise<void> {
    if (intervalSeconds <= 0 || this.#stopped) return;
    const boss = await this.#started();
    await boss.work(SCAN_JOB, { pollingIntervalSeconds: Math.max(1, intervalSeconds / 2) }, async () => {
      await this.scan();
    });
    for (const kind of this.#kinds) {
      await boss.work<{ key: string }>(
        kind.name,
        { batchSize: BATCH, pollingIntervalSeconds: Math.max(0.5, Math.min(2, intervalSeconds)) },
        async (jobs) => {
          await eachLimited(jobs, CONCURRENCY, async (job) => {
            await this.#runOne(kind, job.data.key);
          });
        },
      );
    }
    const askForScan = () => {
      boss
        .send(
          SCAN_JOB,
          {},
          {
            singletonKey: 'scan',
            singletonSeconds: intervalSeconds,
            expireInSeconds: SCAN_EXPIRE_SECONDS,
          },
        )
        .catch((error: unknown) => this.#log.error({ err: error }, 'job scan request failed'));
    };
    askForScan();
    this.#timer = setInterval(askForScan, intervalSeconds * 1000);
    this.#timer.unref();
  }

  /** Finds what is due now and enqueues it; answers how many items each kind has due. */
  async scan(): Promise<Map<string, number>> {
    const boss = await this.#started();
    const now = this.#clock.now();
    for (const step of this.#scanSteps) await step(now);
    const found = new Map<string, number>();
    for (const kind of this.#kinds) {
      let after: string | undefined;
      let count = 0;
      for (;;) {
        const keys = await kind.findDue(now, PAGE, after);
        if (keys.length === 0) break;
        await boss.insert(keys.map((key) => ({ name: kind.name, data: { key }, singletonKey: key })));
        count += keys.length;
        after = keys.at(-1);
        if (keys.length < PAGE) break;
      }
      found.set(kind.name, count);
    }
    return found;
  }

  async #runOne(kind: JobKind, key: string): Promise<boolean> {
    try {
      await kind.run(key, this.#log);
      jobsRun.inc({ queue: kind.name });
      return true;
    } catch (error) {
      jobFailures.inc({ queue: kind.name });
      // The item stays due in its own table; the next scan enqueues it again.
      this.#log.error({ err: error, job: kind.name, key }, 'job failed');
      return false;
    }
  }

  /** Scans, then runs every waiting job in this process until the queues are empty. */
  async runDue(): Promise<RunDueReport> {
    const boss = await this.#started();
    await this.scan();
    const ran: RunDueReport['ran'] = [];
    for (const kind of this.#kinds) {
      let count = 0;
      // Until its queue is empty: what is waiting runs here; what a worker holds is waited for;
      // a job a dead process left is run here once its expiry hands it back (up to a deadline).
      const deadline = Date.now() + RUN_DUE_DEADLINE_MS;
      for (;;) {
        const jobs = await boss.fetch<{ key: string }>(kind.name, { batchSize: BATCH * 4 });
        if (jobs.length > 0) {
          await eachLimited(jobs, CONCURRENCY, async (job) => {
            if (await this.#runOne(kind, job.data.key)) count++;
          });
          await boss.complete(
            kind.name,
            jobs.map((job) => job.id),
          );
          continue;
        }
        if ((await boss.getQueueSize(kind.name, { before: 'completed' })) === 0) break;
        if (Date.now() >= deadline) break;
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
      ran.push({ name: kind.name, count });
    }
    return { ran };
  }

  /** Jobs waiting or running per kind (metrics, operators). */
  async depth(): Promise<Record<string, number>> {
    const boss = await this.#started();
    const sizes: Record<string, number> = {};
    for (const kind of this.#kinds)
      sizes[kind.name] = await boss.getQueueSize(kind.name, { before: 'completed' });
    return sizes;
  }

  async stop(): Promise<void> {
    this.#stopped = true;
    clearInterval(this.#timer);
    const boss = this.#boss ?? (this.#starting ? await this.#starting.catch(() => undefined) : undefined);
    await boss?.stop({ graceful: true, wait: true, close: false, timeout: 5000 });
  }
}
