import type { Kysely } from 'kysely';

/**
 * Throttle windows open at a key's first take and end at `expires_at` (lib/throttle.ts); the
 * old clock-aligned `rate_limits` counters are transient, so they are dropped, not carried over.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('throttles')
    .addColumn('key', 'text', (col) => col.primaryKey())
    .addColumn('hits', 'integer', (col) => col.notNull())
    .addColumn('expires_at', 'timestamptz', (col) => col.notNull())
    .execute();
  await db.schema.createIndex('throttles_expires_at_idx').on('throttles').column('expires_at').execute();
  await db.schema.dropTable('rate_limits').ifExists().execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('throttles').execute();
}
