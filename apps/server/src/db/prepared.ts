import type { Compilable, CompiledQuery, Kysely, Transaction } from 'kysely';

type Executor<DB> = Kysely<DB> | Transaction<DB>;

/** Marks a parameter slot in the compiled template; no real value starts with U+0000. */
const SLOT = '\u0000prepared:';

/** SQL of prepared queries → the name PostgreSQL keeps its parsed, planned statement under. */
const statementNames = new Map<string, string>();

/**
 * The statement name of a prepared query's SQL, if it is one: the PostgreSQL pool and PGlite run
 * these as named statements, parsed and planned once per connection (`db/database.ts`,
 * `db/pglite-dialect.ts`).
 */
export function statementName(sql: string): string | undefined {
  return statementNames.get(sql);
}

interface Template<Row, Args> {
  query: CompiledQuery<Row>;
  /** For each parameter of `query`: the argument that fills it, or undefined for a constant. */
  slots: (keyof Args | undefined)[];
}

function compileTemplate<DB, Args extends Record<string, unknown>, Row>(
  db: Executor<DB>,
  build: (db: Executor<DB>, args: Args) => Compilable<Row>,
  names: string[],
): Template<Row, Args> {
  const placeholders = Object.fromEntries(names.map((name) => [name, `${SLOT}${name}`])) as Args;
  const query = build(db, placeholders).compile();
  const slots = query.parameters.map((value) =>
    typeof value === 'string' && value.startsWith(SLOT)
      ? (value.slice(SLOT.length) as keyof Args)
      : undefined,
  );
  const unused = names.filter((name) => !slots.includes(name));
  if (unused.length > 0) throw new Error(`prepared query: ${unused.join(', ')} is not a query value`);
  if (!statementNames.has(query.sql)) statementNames.set(query.sql, `prepared_${statementNames.size + 1}`);
  return { query, slots };
}

/**
 * A query built and compiled once, then run with new values. On the hot read paths (profile,
 * plans, invitations) building a Kysely query — expression builders, frozen nodes, the compiler —
 * cost more CPU than the database's own work (docs/performance.md). `build` receives placeholder
 * arguments once, so it must use each argument only as a value in the query, never in JavaScript
 * logic; a placeholder that does not reach the parameters is reported on first use.
 */
export function prepared<DB, Args extends Record<string, unknown>, Row>(
  build: (db: Executor<DB>, args: Args) => Compilable<Row>,
): (db: Executor<DB>, args: Args) => Promise<Row[]> {
  let template: Template<Row, Args> | undefined;
  return async (db, args) => {
    template ??= compileTemplate(db, build, Object.keys(args));
    const { query, slots } = template;
    const parameters = query.parameters.map((value, index) => {
      const slot = slots[index];
      return slot === undefined ? value : args[slot];
    });
    const result = await db.executeQuery<Row>({ ...query, parameters });
    return result.rows;
  };
}
