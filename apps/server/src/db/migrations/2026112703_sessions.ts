import type { Kysely } from 'kysely';

/** Each refresh token remembers the device that got it: the list of signed-in devices. */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .alterTable('refresh_tokens')
    .addColumn('user_agent', 'text')
    .addColumn('client_address', 'text')
    .execute();
  await db.schema
    .createIndex('refresh_tokens_user_family_idx')
    .on('refresh_tokens')
    .columns(['user_id', 'family_id'])
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .alterTable('refresh_tokens')
    .dropColumn('user_agent')
    .dropColumn('client_address')
    .execute();
}
