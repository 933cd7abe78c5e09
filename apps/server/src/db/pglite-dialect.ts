import {
  CompiledQuery,
  type DatabaseConnection,
  type Dialect,
  type Driver,
  type Kysely,
  PostgresAdapter,
  PostgresIntrospector,
  PostgresQueryCompiler,
  type QueryResult,
  type TransactionSettings,
} from 'kysely';
import type { StatementRunner } from './pglite-thread.js';
import { statementName } from './prepared.js';

/**
 * Kysely dialect for embedded PGlite, which runs in a thread of its own (`db/pglite-thread.ts`).
 * PGlite is a single connection, so every query and every transaction takes it exclusively (as
 * Kysely's own SQLite driver does); concurrent requests queue instead of interleaving statements
 * inside each other's transactions.
 */
export class PGliteDialect implements Dialect {
  /** The thread may still be starting PGlite (a first start creates the cluster); queries wait. */
  constructor(private readonly thread: StatementRunner) {}

  createAdapter() {
    return new PostgresAdapter();
  }
  createDriver(): Driver {
    return new PGliteDriver(this.thread);
  }
  createIntrospector(db: Kysely<unknown>) {
    return new PostgresIntrospector(db);
  }
  createQueryCompiler() {
    return new PostgresQueryCompiler();
  }
}

class PGliteDriver implements Driver {
  readonly #mutex = new ConnectionMutex();
  readonly #thread: StatementRunner;
  #connection: PGliteConnection | undefined;

  constructor(thread: StatementRunner) {
    this.#thread = thread;
  }

  /** Kysely runs this once, before the first connection is acquired; a failed start throws here. */
  async init() {
    await this.#thread.ready;
    this.#connection = new PGliteConnection(this.#thread);
  }

  async acquireConnection(): Promise<DatabaseConnection> {
    await this.#mutex.lock();
    if (!this.#connection) throw new Error('PGlite driver used before init');
    return this.#connection;
  }

  async beginTransaction(connection: DatabaseConnection, settings: TransactionSettings) {
    const isolation = settings.isolationLevel ? ` isolation level ${settings.isolationLevel}` : '';
    await connection.executeQuery(CompiledQuery.raw(`begin${isolation}`));
  }

  async commitTransaction(connection: DatabaseConnection) {
    await connection.executeQuery(CompiledQuery.raw('commit'));
  }

  async rollbackTransaction(connection: DatabaseConnection) {
    await connection.executeQuery(CompiledQuery.raw('rollback'));
  }

  async releaseConnection() {
    this.#mutex.unlock();
  }

  async destroy() {
    await this.#thread.close();
  }
}

class PGliteConnection implements DatabaseConnection {
  constructor(private readonly thread: StatementRunner) {}

  async executeQuery<R>(compiledQuery: CompiledQuery): Promise<QueryResult<R>> {
    const kind = compiledQuery.query.kind;
    const name = statementName(compiledQuery.sql);
    const answer = await this.thread.run({
      sql: compiledQuery.sql,
      parameters: compiledQuery.parameters,
      ...(name ? { name } : {}),
      script: kind === 'RawNode' && compiledQuery.parameters.length === 0,
    });
    const changesRows =
      kind === 'InsertQueryNode' ||
      kind === 'UpdateQueryNode' ||
      kind === 'DeleteQueryNode' ||
      kind === 'MergeQueryNode';
    return {
      rows: answer.rows as R[],
      ...(changesRows && answer.affectedRows !== undefined
        ? { numAffectedRows: BigInt(answer.affectedRows) }
        : {}),
    };
  }

  // biome-ignore lint/correctness/useYield: PGlite has no cursors; streaming is not offered.
  async *streamQuery<R>(): AsyncIterableIterator<QueryResult<R>> {
    throw new Error('Streaming queries are not supported on PGlite');
  }
}

/**
 * The one connection, handed to waiters first come, first served: a release passes it straight
 * to the oldest waiter (a newcomer cannot slip in between), and wakes only that one, so under
 * load a query's wait follows the queue's length and p99 follows p50 (docs/performance.md).
 */
export class ConnectionMutex {
  #locked = false;
  readonly #waiters: (() => void)[] = [];
  #head = 0;

  lock(): Promise<void> {
    if (!this.#locked) {
      this.#locked = true;
      return Promise.resolve();
    }
    return new Promise((resolve) => {
      this.#waiters.push(resolve);
    });
  }

  unlock(): void {
    const next = this.#waiters[this.#head];
    if (!next) {
      this.#waiters.length = 0;
      this.#head = 0;
      this.#locked = false;
      return;
    }
    this.#head++;
    // Under a load that never lets the queue empty, the served part is dropped now and then.
    if (this.#head >= 1024) {
      this.#waiters.splice(0, this.#head);
      this.#head = 0;
    }
    next();
  }
}
