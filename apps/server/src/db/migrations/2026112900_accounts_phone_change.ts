import type { Kysely } from 'kysely';

/** A changed phone number waits in `pending_phone` until the code sent to it is entered (security.md). */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('users').addColumn('pending_phone', 'text').execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('users').dropColumn('pending_phone').execute();
}
