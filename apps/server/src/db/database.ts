import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { Kysely, PostgresDialect } from 'kysely';
import pg from 'pg';
import { INT8_OID, NUMERIC_OID, parseNumber } from './number-types.js';
import { PGliteDialect } from './pglite-dialect.js';
import { PGliteThread, type StatementRunner } from './pglite-thread.js';
import { statementName } from './prepared.js';
import { tracedDialect } from './query-spans.js';
import type { Database } from './schema.js';

export type DatabaseKind = 'pglite' | 'postgres';

export interface DatabaseHandle {
  db: Kysely<Database>;
  kind: DatabaseKind;
  /** The pool's connections (PostgreSQL only). */
  poolStats?: () => { total: number; idle: number; waiting: number };
  close(): Promise<void>;
}

export type DatabaseOptions =
  | {
      kind: 'postgres';
      url: string;
      /** The pool's connections: every query, prepared or built per call, and transactions. */
      poolSize: number;
    }
  | {
      kind: 'pglite';
      /** Undefined keeps the database in memory (tests). */
      dataDir?: string;
      /**
       * A tar of a data directory (`dumpDataDir`) to start from instead of creating a cluster: the
       * tests' migrated snapshot (`test/helpers/pglite-snapshot.ts`). With `dataDir`, an empty one.
       */
      loadDataDir?: Blob;
    };

/**
 * A pg client that runs the SQL of `prepared()` queries as named statements, so PostgreSQL
 * parses and plans them once per connection instead of on every call: planning the profile
 * query cost the server more CPU than running it (docs/performance.md).
 */
class NamedStatementClient extends pg.Client {
  // biome-ignore lint/suspicious/noExplicitAny: forwards pg's overloaded signature unchanged
  override query(text: any, values?: any, callback?: any): any {
    const name = typeof text === 'string' && Array.isArray(values) ? statementName(text) : undefined;
    return name ? super.query({ name, text, values }, callback) : super.query(text, values, callback);
  }
}

export async function openDatabase(options: DatabaseOptions): Promise<DatabaseHandle> {
  if (options.kind === 'postgres') {
    const pool = new pg.Pool({
      connectionString: options.url,
      Client: NamedStatementClient,
      max: options.poolSize,
      idleTimeoutMillis: 30_000,
      connectionTimeoutMillis: 5_000,
      types: {
        getTypeParser: ((oid: number, format?: 'text' | 'binary') =>
          oid === INT8_OID || oid === NUMERIC_OID
            ? parseNumber
            : pg.types.getTypeParser(oid, format)) as typeof pg.types.getTypeParser,
      },
    });
    pool.on('error', () => {
      // An idle client lost its server; the pool replaces it and the next query reports the error.
    });
    // A client checked out when its server goes (a restart, a failover, a terminated backend)
    // emits 'error' with no pool listener attached: without one of its own the process exits.
    // Its query rejects all the same and the pool drops the client when it is released.
    pool.on('connect', (client) => {
      client.on('error', () => {});
    });
    const db = new Kysely<Database>({ dialect: tracedDialect(new PostgresDialect({ pool }), 'postgres') });
    return {
      db,
      kind: 'postgres',
      poolStats: () => ({ total: pool.totalCount, idle: pool.idleCount, waiting: pool.waitingCount }),
      close: () => db.destroy(),
    };
  }

  let dataDir: string | undefined;
  if (options.dataDir) {
    dataDir = path.join(options.dataDir, 'pgdata');
    mkdirSync(dataDir, { recursive: true });
  }
  // Not awaited: creating a new cluster takes seconds, and the server answers its pages
  // meanwhile; queries wait for it in the dialect, and a failure surfaces at the first query.
  const thread = new PGliteThread({
    ...(dataDir ? { dataDir } : {}),
    ...(options.loadDataDir ? { loadDataDir: options.loadDataDir } : {}),
  });
  return pgliteHandle(thread);
}

/**
 * The app's database on a PGlite that runs in `runner` (its own thread; in tests, one lent by a
 * pool, whose `close` gives it back).
 */
export function pgliteHandle(runner: StatementRunner): DatabaseHandle {
  const db = new Kysely<Database>({ dialect: tracedDialect(new PGliteDialect(runner), 'pglite') });
  return {
    db,
    kind: 'pglite',
    close: async () => {
      await db.destroy();
      // Kysely only closes a driver it started; an unused PGlite must still checkpoint and close.
      await runner.close();
    },
  };
}
