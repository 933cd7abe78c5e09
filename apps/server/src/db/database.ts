import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { Kysely, PostgresDialect } from 'kysely';
import pg from 'pg';
import { PGliteDialect } from './pglite-dialect.js';
import { statementName } from './prepared.js';
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
  | { kind: 'postgres'; url: string; poolSize: number }
  /** `dataDir` undefined keeps the database in memory (tests). */
  | { kind: 'pglite'; dataDir?: string };

const INT8_OID = 20;
const NUMERIC_OID = 1700;
/** Both drivers answer counts and sums as JS numbers; our values stay far below 2^53. */
const parseNumber = (value: string) => Number(value);

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
    const dialect = new PostgresDialect({ pool });
    const db = new Kysely<Database>({ dialect });
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
  const pglite = PGlite.create({
    ...(dataDir ? { dataDir } : {}),
    parsers: { [INT8_OID]: parseNumber, [NUMERIC_OID]: parseNumber },
  });
  pglite.catch(() => {});
  const db = new Kysely<Database>({ dialect: new PGliteDialect(pglite) });
  return {
    db,
    kind: 'pglite',
    close: async () => {
      await db.destroy();
      // Kysely only closes a driver it started; an unused PGlite must still checkpoint and close.
      const instance = await pglite.catch(() => undefined);
      if (instance && !instance.closed) await instance.close();
    },
  };
}
