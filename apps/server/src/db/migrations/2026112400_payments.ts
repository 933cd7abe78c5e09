import { type Kysely, sql } from 'kysely';

/**
 * Premium checkout: one invoice per payment attempt, the payment log of every step, and the
 * spec's cache items. A paid invoice activates through `subscriptions.invoice_id` (unique).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('payment_invoices')
    .addColumn('invoice_id', 'text', (col) => col.primaryKey())
    .addColumn('user_id', 'uuid', (col) => col.notNull().references('users.id').onDelete('cascade'))
    .addColumn('package_id', 'integer', (col) => col.notNull().references('packages.id'))
    .addColumn('amount', 'integer', (col) => col.notNull().check(sql`amount >= 0`))
    .addColumn('currency', 'text', (col) => col.notNull())
    .addColumn('status', 'text', (col) =>
      col
        .notNull()
        .defaultTo('created')
        .check(sql`status in ('created', 'paid', 'declined', 'cancelled', 'failed', 'expired')`),
    )
    .addColumn('provider_token', 'text', (col) => col.unique())
    .addColumn('subscription_id', 'uuid', (col) => col.references('subscriptions.id').onDelete('set null'))
    .addColumn('created_at', 'timestamptz', (col) => col.notNull())
    .addColumn('settled_at', 'timestamptz')
    .execute();
  await db.schema
    .createIndex('payment_invoices_pending_idx')
    .on('payment_invoices')
    .columns(['status', 'created_at'])
    .execute();
  await db.schema.createIndex('payment_invoices_user_idx').on('payment_invoices').column('user_id').execute();

  await db.schema
    .createTable('payment_logs')
    .addColumn('id', 'bigserial', (col) => col.primaryKey())
    .addColumn('order_number', 'text', (col) => col.notNull())
    .addColumn('user_id', 'uuid')
    .addColumn('subscriber_name', 'text', (col) => col.notNull().defaultTo(''))
    .addColumn('package_name', 'text', (col) => col.notNull().defaultTo(''))
    .addColumn('purchase_price', 'integer')
    .addColumn('current_process', 'text', (col) => col.notNull())
    .addColumn('type', 'text', (col) => col.notNull())
    .addColumn('message', 'text', (col) => col.notNull())
    .addColumn('request', 'jsonb')
    .addColumn('response', 'jsonb')
    .addColumn('created_at', 'timestamptz', (col) => col.notNull().defaultTo(sql`now()`))
    .execute();
  await db.schema
    .createIndex('payment_logs_order_idx')
    .on('payment_logs')
    .columns(['order_number', 'id'])
    .execute();

  await db.schema
    .createTable('cache_items')
    .addColumn('user_id', 'uuid', (col) => col.notNull().references('users.id').onDelete('cascade'))
    .addColumn('key', 'text', (col) => col.notNull())
    .addColumn('value', 'text', (col) => col.notNull())
    .addColumn('updated_at', 'timestamptz', (col) => col.notNull().defaultTo(sql`now()`))
    .addPrimaryKeyConstraint('cache_items_pk', ['user_id', 'key'])
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  for (const table of ['cache_items', 'payment_logs', 'payment_invoices']) {
    await db.schema.dropTable(table).execute();
  }
}
