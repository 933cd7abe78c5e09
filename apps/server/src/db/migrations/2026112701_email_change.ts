import type { Kysely } from 'kysely';

/**
 * A changed e-mail address waits in `pending_email` until the code sent to it is entered
 * (security.md). Code tries moved to the throttle (lib/throttle.ts), so their column goes.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('users').addColumn('pending_email', 'text').execute();
  await db.schema.alterTable('otp_codes').dropColumn('wrong_tries').execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('users').dropColumn('pending_email').execute();
}
