import { type Kysely, sql } from 'kysely';

/**
 * The card on file replaced without a charge (the gateway's save-card flow, `rest/card-session`)
 * and the listener's choice of how renewals are paid (card or a QPay link), plus the sandbox
 * gateway's save-card sessions.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  // One row per save-card session we open: its reference is ours, the user whose card it replaces.
  await db.schema
    .createTable('card_replacements')
    .addColumn('reference', 'text', (col) => col.primaryKey())
    .addColumn('user_id', 'uuid', (col) => col.notNull().references('users.id').onDelete('cascade'))
    .addColumn('status', 'text', (col) =>
      col.notNull().defaultTo('pending').check(sql`status in ('pending', 'saved', 'declined', 'cancelled')`),
    )
    .addColumn('created_at', 'timestamptz', (col) => col.notNull())
    .addColumn('settled_at', 'timestamptz')
    .execute();
  await db.schema
    .createIndex('card_replacements_user_idx')
    .on('card_replacements')
    .columns(['user_id', 'created_at'])
    .execute();

  // No row: renewals charge the card on file when there is one, else a payment link goes out.
  await db.schema
    .createTable('renewal_methods')
    .addColumn('user_id', 'uuid', (col) => col.primaryKey().references('users.id').onDelete('cascade'))
    .addColumn('method', 'text', (col) => col.notNull().check(sql`method in ('card', 'qpay')`))
    .addColumn('updated_at', 'timestamptz', (col) => col.notNull())
    .execute();

  await db.schema
    .createTable('sandbox_gateway_card_sessions')
    .addColumn('token', 'text', (col) => col.primaryKey())
    .addColumn('client_id', 'text', (col) => col.notNull())
    .addColumn('reference', 'text', (col) => col.notNull())
    .addColumn('language_code', 'text', (col) => col.notNull())
    .addColumn('redirect_url', 'text', (col) => col.notNull())
    .addColumn('status', 'text', (col) => col.notNull().defaultTo('pending'))
    .addColumn('card_token', 'text')
    .addColumn('created_at', 'timestamptz', (col) => col.notNull())
    .addColumn('settled_at', 'timestamptz')
    .addUniqueConstraint('sandbox_gateway_card_sessions_reference_key', ['client_id', 'reference'])
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('sandbox_gateway_card_sessions').execute();
  await db.schema.dropTable('renewal_methods').execute();
  await db.schema.dropTable('card_replacements').execute();
}
