import type { Kysely } from 'kysely';

/**
 * The built-in sandbox gateway's own book of payments (product.md §10). It stands in for an outside
 * provider, so it shares no table with the premium module.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('sandbox_gateway_payments')
    .addColumn('token', 'text', (col) => col.primaryKey())
    .addColumn('client_id', 'text', (col) => col.notNull())
    .addColumn('invoice_id', 'text', (col) => col.notNull())
    .addColumn('amount', 'integer', (col) => col.notNull())
    .addColumn('currency', 'text', (col) => col.notNull())
    .addColumn('description', 'text', (col) => col.notNull())
    .addColumn('language_code', 'text', (col) => col.notNull())
    .addColumn('redirect_url', 'text', (col) => col.notNull())
    .addColumn('callback_url', 'text')
    .addColumn('status', 'text', (col) => col.notNull().defaultTo('pending'))
    .addColumn('card_last4', 'text')
    .addColumn('created_at', 'timestamptz', (col) => col.notNull())
    .addColumn('settled_at', 'timestamptz')
    .addUniqueConstraint('sandbox_gateway_payments_invoice_uq', ['client_id', 'invoice_id'])
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('sandbox_gateway_payments').execute();
}
