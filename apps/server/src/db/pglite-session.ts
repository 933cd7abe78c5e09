import { type PGlite, parse, protocol, type Results } from '@electric-sql/pglite';

/** One statement as the main thread sends it to PGlite's thread (`db/pglite-thread.ts`). */
export interface Statement {
  sql: string;
  parameters: readonly unknown[];
  /** A `prepared()` query's statement name (`db/prepared.ts`): parsed and planned once. */
  name?: string;
  /** Raw SQL without parameters, possibly several statements (the job queue's own migrations). */
  script: boolean;
}

/** What a statement answers: its rows, and how many rows it changed when it is a write. */
export interface Answer {
  rows: unknown[];
  affectedRows?: number;
}

/**
 * Runs statements on a PGlite instance, one at a time, inside PGlite's own thread.
 *
 * A `prepared()` query runs as a named statement, parsed and planned once: PGlite's `query`
 * parses, plans and describes its SQL on every call in five trips through the protocol, and
 * planning the profile's join cost more than running it (docs/performance.md). A call is then one
 * trip: bind, describe, execute and sync in a single message. `execProtocol` does not take
 * PGlite's own query lock; it needs none, as the thread runs one statement at a time and nothing
 * else holds the PGlite instance.
 */
export class PGliteSession {
  /** Named statements parsed on this database: name → the types of their parameters. */
  readonly #statements = new Map<string, number[]>();

  constructor(private readonly pglite: PGlite) {}

  async run(statement: Statement): Promise<Answer> {
    if (statement.script) {
      // The simple protocol runs every statement and answers the last one's rows.
      const results = await this.pglite.exec(statement.sql);
      return { rows: results.at(-1)?.rows ?? [] };
    }
    const result = statement.name
      ? await this.#runNamed(statement.name, statement.sql, statement.parameters)
      : await this.pglite.query(statement.sql, [...statement.parameters]);
    return {
      rows: result.rows,
      ...(result.affectedRows === undefined ? {} : { affectedRows: result.affectedRows }),
    };
  }

  async close(): Promise<void> {
    if (!this.pglite.closed) await this.pglite.close();
  }

  async #runNamed(name: string, sql: string, parameters: readonly unknown[]): Promise<Results> {
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
    return result;
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
}
