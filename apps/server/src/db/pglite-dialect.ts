import { type PGlite, parse, protocol, type Results } from '@electric-sql/pglite';
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
import { statementName } from './prepared.js';

/**
 * Kysely dialect for embedded PGlite. PGlite is a single connection, so every query and every
 * transaction takes it exclusively (as Kysely's own SQLite driver does); concurrent requests
 * queue instead of interleaving statements inside each other's transactions.
 */
export class PGliteDialect implements Dialect {
  /** `pglite` may still be starting (a first start creates the cluster); queries wait for it. */
  constructor(private readonly pglite: PGlite | Promise<PGlite>) {}

  createAdapter() {
    return new PostgresAdapter();
  }
  createDriver(): Driver {
    return new PGliteDriver(this.pglite);
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
  readonly #pglite: PGlite | Promise<PGlite>;
  #connection: PGliteConnection | undefined;

  constructor(pglite: PGlite | Promise<PGlite>) {
    this.#pglite = pglite;
  }

  /** Kysely runs this once, before the first connection is acquired. */
  async init() {
    this.#connection = new PGliteConnection(await this.#pglite);
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
    await this.#connection?.close();
  }
}

class PGliteConnection implements DatabaseConnection {
  /** Named statements parsed on this database: name → the types of their parameters. */
  readonly #statements = new Map<string, number[]>();

  constructor(private readonly pglite: PGlite) {}

  /**
   * A `prepared()` query as a named statement, parsed and planned once: PGlite's `query` parses,
   * plans and describes its SQL on every call in five trips through the protocol, and planning
   * the profile's join cost more than running it (docs/performance.md). A call is then one trip:
   * bind, describe, execute and sync in a single message. `execProtocol` does not take PGlite's
   * own query lock; it needs none, as the driver's ConnectionMutex lends this connection to one
   * caller at a time and nothing else holds the PGlite instance.
   */
  async #runNamed<R>(name: string, sql: string, parameters: readonly unknown[]): Promise<Results<R>> {
    const types = this.#statements.get(name) ?? (await this.#parse(name, sql));
    const values = parameters.map((value, index) => {
      if (value === null || value === undefined) return null;
      const serializer = this.pglite.serializers[types[index] ?? 0];
      return serializer ? serializer(value) : String(value);
    });
    const message = Buffer.concat([
      protocol.serialize.bind({ statement: name, values }),
      protocol.serialize.describe({ type: 'P' }),
      protocol.serialize.execute({}),
      protocol.serialize.sync(),
    ]);
    const { messages } = await this.pglite.execProtocol(message);
    const [result] = parse.parseResults(messages, this.pglite.parsers);
    if (!result) throw new Error(`PGlite answered no result for statement ${name}`);
    return result as Results<R>;
  }

  async #parse(name: string, sql: string): Promise<number[]> {
    const message = Buffer.concat([
      protocol.serialize.parse({ name, text: sql }),
      protocol.serialize.describe({ type: 'S', name }),
      protocol.serialize.sync(),
    ]);
    const { messages } = await this.pglite.execProtocol(message, { syncToFs: false });
    const types = parse.parseDescribeStatementResults(messages);
    this.#statements.set(name, types);
    return types;
  }

  async executeQuery<R>(compiledQuery: CompiledQuery): Promise<QueryResult<R>> {
    // Raw SQL without parameters may hold several statements (the job queue's own migrations):
    // the simple protocol runs them all and answers the last one's rows.
    if (compiledQuery.query.kind === 'RawNode' && compiledQuery.parameters.length === 0) {
      const results = await this.pglite.exec(compiledQuery.sql);
      const last = results.at(-1);
      return { rows: (last?.rows ?? []) as R[] };
    }
    const name = statementName(compiledQuery.sql);
    const result = name
      ? await this.#runNamed<R>(name, compiledQuery.sql, compiledQuery.parameters)
      : await this.pglite.query<R>(compiledQuery.sql, [...compiledQuery.parameters]);
    const kind = compiledQuery.query.kind;
    const changesRows =
      kind === 'InsertQueryNode' ||
      kind === 'UpdateQueryNode' ||
      kind === 'DeleteQueryNode' ||
      kind === 'MergeQueryNode';
    return {
      rows: result.rows,
      ...(changesRows && result.affectedRows !== undefined
        ? { numAffectedRows: BigInt(result.affectedRows) }
        : {}),
    };
  }

  // biome-ignore lint/correctness/useYield: PGlite has no cursors; streaming is not offered.
  async *streamQuery<R>(): AsyncIterableIterator<QueryResult<R>> {
    throw new Error('Streaming queries are not supported on PGlite');
  }

  async close() {
    if (!this.pglite.closed) await this.pglite.close();
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
