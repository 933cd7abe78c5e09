import { type Kysely, sql } from 'kysely';

/**
 * The books check's results (billing/books-check.ts, books-store.ts): one row per check, so the
 * console shows the last one, every instance's metrics read the same count, and the hourly job
 * goes on from where the last one stopped asking the providers.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('books_checks')
    .addColumn('id', 'bigserial', (col) => col.primaryKey())
    .addColumn('trigger', 'text', (col) =>
      col.notNull().check(sql`trigger in ('job', 'command', 'console', 'dev')`),
    )
    .addColumn('started_at', 'timestamptz', (col) => col.notNull())
    .addColumn('finished_at', 'timestamptz', (col) => col.notNull())
    .addColumn('since', 'timestamptz')
    // Invoices touched since then were asked of the providers, up to `providers_after` when the
    // check stopped at its bound (null: all of them); a sweep the job goes on with over several
    // runs began at `sweep_started_at`, and the next sweep asks about what was touched since.
    .addColumn('providers_since', 'timestamptz')
    .addColumn('providers_after', 'text')
    .addColumn('sweep_started_at', 'timestamptz', (col) => col.notNull())
    .addColumn('invoices_asked', 'integer', (col) => col.notNull())
    .addColumn('mismatch_count', 'integer', (col) => col.notNull())
    .addColumn('report', 'jsonb', (col) => col.notNull())
    .execute();
  await db.schema
    .createIndex('books_checks_trigger_idx')
    .on('books_checks')
    .columns(['trigger', 'id'])
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('books_checks').execute();
}
