import { type Kysely, sql } from 'kysely';
import type { Database } from '../../../src/db/schema.js';

/**
 * Tables whose rows change by design when a request is refused: throttle counters count refused
 * attempts (security.md), so they are left out of "stored data".
 */
const BOOKKEEPING_TABLES = new Set(['throttles', 'kysely_migration', 'kysely_migration_lock']);

/** Row count and a digest of every row of every table: equal snapshots mean no stored data changed. */
export async function snapshotData(db: Kysely<Database>): Promise<Record<string, string>> {
  const tables = await sql<{ table_name: string }>`
    select table_name from information_schema.tables
    where table_schema = current_schema() and table_type = 'BASE TABLE'
    order by table_name`.execute(db);
  const snapshot: Record<string, string> = {};
  for (const { table_name: table } of tables.rows) {
    if (BOOKKEEPING_TABLES.has(table)) continue;
    const { rows } = await sql<{ count: number; digest: string | null }>`
      select count(*)::int as count, md5(string_agg(t::text, '|' order by t::text)) as digest
      from ${sql.table(table)} as t`.execute(db);
    snapshot[table] = `${rows[0]?.count ?? 0}:${rows[0]?.digest ?? ''}`;
  }
  return snapshot;
}

/** The tables whose snapshot differs, for a readable failure. */
export function changedTables(before: Record<string, string>, after: Record<string, string>): string[] {
  const names = new Set([...Object.keys(before), ...Object.keys(after)]);
  return [...names].filter((name) => before[name] !== after[name]).sort();
}
