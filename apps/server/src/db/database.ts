import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { Kysely, PostgresDialect } from 'kysely';
import pg from 'pg';
import postgres from 'postgres';
import { INT8_OID, NUMERIC_OID, parseNumber } from './number-types.js';
import { PGliteDialect } from './pglite-dialect.js';
import { PGliteThread } from './pglite-thread.js';
import { runPreparedWith, statementName } from './prepared.js';
import { tracedDialect, tracedStatements } from './query-spans.js';
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
      /** The pool's connections: transactions, sessions and every query built per call. */
      poolSize: number;
      /** The pipelining client's connections: prepared queries run on their own. */
      pipelineSize?: number;
    }
  /** `dataDir` undefined keeps the database in memory (tests). */
  | { kind: 'pglite'; dataDir?: string };

/** The pipelining client's connections unless `DATABASE_PIPELINE_SIZE` says otherwise (decision 0027). */
const PIPELINE_SIZE = 4;

const JSON_OID = 114;
const JSONB_OID = 3802;

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

/**
 * The client for prepared queries run on their own (no transaction): postgres.js writes each
 * statement as it comes on one of a few connections, without waiting for the one before it to
 * answer, so many callers' statements share a write and a read, and PostgreSQL's backends wake
 * once for several. With pg every statement held a connection for its whole round trip; the
 * profile call cost less CPU in the server and in PostgreSQL this way (docs/performance.md,
 * "Round ten"). Values go and come back as with pg: int8 and numeric read as numbers, JSON text
 * is sent as it is, undefined as null. Each statement is prepared once per connection.
 */
function pipelinedStatements(url: string, connections: number) {
  const client = postgres(url, {
    max: connections,
    prepare: true,
    connect_timeout: 5,
    idle_timeout: 30,
    onnotice: () => {},
    transform: { undefined: null },
    types: {
      countsAndSums: { to: INT8_OID, from: [INT8_OID, NUMERIC_OID], serialize: String, parse: parseNumber },
      // As pg sends them: a string is JSON text already (callers stringify arrays); else encoded.
      json: {
        to: JSON_OID,
        from: [JSON_OID, JSONB_OID],
        serialize: (value: unknown) => (typeof value === 'string' ? value : JSON.stringify(value)),
        parse: (text: string) => JSON.parse(text),
      },
    },
  });
  const run = async (sql: string, parameters: readonly unknown[]) =>
    Array.from(await client.unsafe(sql, parameters as postgres.ParameterOrJSON<never>[], { prepare: true }));
  return { run, close: () => client.end({ timeout: 5 }) };
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
    const statements = pipelinedStatements(options.url, options.pipelineSize ?? PIPELINE_SIZE);
    runPreparedWith(db, tracedStatements(statements.run));
    return {
      db,
      kind: 'postgres',
      poolStats: () => ({ total: pool.totalCount, idle: pool.idleCount, waiting: pool.waitingCount }),
      close: async () => {
        await Promise.all([db.destroy(), statements.close()]);
      },
    };
  }

  let dataDir: string | undefined;
  if (options.dataDir) {
    dataDir = path.join(options.dataDir, 'pgdata');
    mkdirSync(dataDir, { recursive: true });
  }
  // Not awaited: creating a new cluster takes seconds, and the server answers its pages
  // meanwhile; queries wait for it in the dialect, and a failure surfaces at the first query.
  const thread = new PGliteThread(dataDir ? { dataDir } : {});
  const db = new Kysely<Database>({ dialect: tracedDialect(new PGliteDialect(thread), 'pglite') });
  return {
    db,
    kind: 'pglite',
    close: async () => {
      await db.destroy();
      // Kysely only closes a driver it started; an unused PGlite must still checkpoint and close.
      await thread.close();
    },
  };
}
