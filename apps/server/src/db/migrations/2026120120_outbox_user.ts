import { type Kysely, sql } from 'kysely';

/**
 * Each message names the account it was sent to (security.md): a data export and the console's
 * list of a listener's messages match by account, not by address, so a number or address that
 * changed hands does not show its previous holder's messages. Null for a message to an address
 * no account holds (a code before registration) and for rows written before this column, which
 * neither lists (who held their address then is not known).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .alterTable('outbox_messages')
    .addColumn('user_id', 'uuid', (col) => col.references('users.id').onDelete('cascade'))
    .execute();
  await sql`create index outbox_messages_user_idx on outbox_messages (user_id, created_at) where user_id is not null`.execute(
    db,
  );
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('outbox_messages').dropColumn('user_id').execute();
}
