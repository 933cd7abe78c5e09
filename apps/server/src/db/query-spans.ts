import type { DatabaseConnection, Dialect, Driver, QueryResult } from 'kysely';
import { inChildSpan, inTracedRequest, SpanKind } from '../lib/spans.js';

/**
 * A span per SQL statement inside a traced request (docs/operations.md "Traces", decision 0034):
 * named by operation and table (`select users`), with the statement's text — Kysely sends every
 * value as a parameter, so the text holds no data. One place for both databases: the pg pool
 * and PGlite, through Kysely's connections.
 */
export type DatabaseEngine = 'postgres' | 'pglite';

const TABLE = /\b(?:from|into|update|join)\s+"?([\w]+)"?(?:\s*\.\s*"?([\w]+)"?)?/i;

/** `select users`, `insert outbox_messages`, `begin`: the operation and the first table named. */
export function statementSummary(sql: string): { operation: string; table?: string } {
  const operation = (/^\s*\(?\s*(\w+)/.exec(sql)?.[1] ?? 'query').toLowerCase();
  const match = TABLE.exec(sql);
  const table = match ? (match[2] ?? match[1]) : undefined;
  return table ? { operation, table } : { operation };
}

function traced<T>(engine: DatabaseEngine, sql: string, run: () => Promise<T>, rows: (result: T) => number) {
  // Most statements run outside a traced request: no summary, no attributes, no closure.
  if (!inTracedRequest()) return run();
  const { operation, table } = statementSummary(sql);
  return inChildSpan(
    {
      name: table ? `${operation} ${table}` : operation,
      kind: SpanKind.CLIENT,
      attributes: {
        'db.system.name': 'postgresql',
        'db.operation.name': operation,
        ...(table ? { 'db.collection.name': table } : {}),
        'db.query.text': sql.length > 2000 ? `${sql.slice(0, 2000)}…` : sql,
        'tunes.db.engine': engine,
      },
      resultAttributes: (result) => ({ 'db.response.returned_rows': rows(result) }),
    },
    run,
  );
}

/** `dialect` with each statement of its connections in a span. */
export function tracedDialect(dialect: Dialect, engine: DatabaseEngine): Dialect {
  return {
    createAdapter: () => dialect.createAdapter(),
    createDriver: () => tracedDriver(dialect.createDriver(), engine),
    createQueryCompiler: () => dialect.createQueryCompiler(),
    createIntrospector: (db) => dialect.createIntrospector(db),
  };
}

function tracedDriver(driver: Driver, engine: DatabaseEngine): Driver {
  const seen = new WeakSet<DatabaseConnection>();
  const acquire = driver.acquireConnection.bind(driver);
  // The driver and its connections stay what they are (the pg driver releases a connection
  // through a method of its own class); only each connection's executeQuery gains the span.
  driver.acquireConnection = async () => {
    const connection = await acquire();
    if (!seen.has(connection)) {
      seen.add(connection);
      const execute = connection.executeQuery.bind(connection);
      connection.executeQuery = <R>(query: Parameters<typeof execute>[0]) =>
        traced(
          engine,
          query.sql,
          () => execute<R>(query),
          (result: QueryResult<R>) => result.rows.length,
        );
    }
    return connection;
  };
  return driver;
}
