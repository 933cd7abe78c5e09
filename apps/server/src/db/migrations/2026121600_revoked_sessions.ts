import { type Kysely, sql } from 'kysely';

/**
 * Sign-ins that ended while their access tokens may still be unexpired (lib/revoked-sessions.ts):
 * every API process reads the rows recorded since its last look, about once a second, so such a
 * token stops working everywhere within seconds. `recorded_at` is the database's own clock, the
 * one all processes share; a row goes once every token of its sign-in has expired.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('revoked_sessions')
    .addColumn('session_id', 'uuid', (col) => col.primaryKey())
    .addColumn('expires_at', 'timestamptz', (col) => col.notNull())
    .addColumn('recorded_at', 'timestamptz', (col) => col.notNull().defaultTo(sql`clock_timestamp()`))
    .execute();
  await db.schema
    .createIndex('revoked_sessions_recorded_at_idx')
    .on('revoked_sessions')
    .column('recorded_at')
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('revoked_sessions').execute();
}
