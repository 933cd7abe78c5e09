import { type Kysely, sql } from 'kysely';

/**
 * The built-in QPay and PosAPI sandboxes' own books (never used in production). They stand in
 * for outside services, so they share no table with the payment or receipt modules.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('sandbox_qpay_tokens')
    .addColumn('token', 'text', (col) => col.primaryKey())
    .addColumn('kind', 'text', (col) => col.notNull().check(sql`kind in ('access', 'refresh')`))
    .addColumn('client_id', 'text', (col) => col.notNull())
    .addColumn('expires_at', 'timestamptz', (col) => col.notNull())
    .execute();
  await db.schema
    .createTable('sandbox_qpay_invoices')
    .addColumn('id', 'text', (col) => col.primaryKey())
    .addColumn('client_id', 'text', (col) => col.notNull())
    .addColumn('invoice_code', 'text', (col) => col.notNull())
    .addColumn('sender_invoice_no', 'text', (col) => col.notNull())
    .addColumn('receiver_code', 'text', (col) => col.notNull())
    .addColumn('description', 'text', (col) => col.notNull())
    .addColumn('amount', 'integer', (col) => col.notNull())
    .addColumn('callback_url', 'text', (col) => col.notNull())
    .addColumn('status', 'text', (col) => col.notNull().defaultTo('OPEN'))
    .addColumn('created_at', 'timestamptz', (col) => col.notNull())
    .execute();
  await db.schema
    .createTable('sandbox_qpay_payments')
    .addColumn('payment_id', 'text', (col) => col.primaryKey())
    .addColumn('invoice_id', 'text', (col) => col.notNull().references('sandbox_qpay_invoices.id'))
    .addColumn('bank', 'text', (col) => col.notNull())
    .addColumn('status', 'text', (col) => col.notNull())
    .addColumn('amount', 'integer', (col) => col.notNull())
    .addColumn('created_at', 'timestamptz', (col) => col.notNull())
    .execute();
  // A QPay invoice is paid at most once.
  await sql`create unique index sandbox_qpay_payments_paid_uq on sandbox_qpay_payments (invoice_id) where status = 'PAID'`.execute(
    db,
  );

  await db.schema
    .createTable('sandbox_ebarimt_receipts')
    .addColumn('id', 'text', (col) => col.primaryKey())
    .addColumn('type', 'text', (col) => col.notNull())
    .addColumn('merchant_tin', 'text', (col) => col.notNull())
    .addColumn('customer_tin', 'text')
    .addColumn('total_amount', 'numeric', (col) => col.notNull())
    .addColumn('total_vat', 'numeric', (col) => col.notNull())
    .addColumn('lottery', 'text')
    .addColumn('date', 'text', (col) => col.notNull())
    .addColumn('voided', 'boolean', (col) => col.notNull().defaultTo(false))
    .addColumn('created_at', 'timestamptz', (col) => col.notNull())
    .execute();
  // Outages ordered for tests: the next `remaining` receipt requests answer 503.
  await db.schema
    .createTable('sandbox_ebarimt_outages')
    .addColumn('id', 'integer', (col) => col.primaryKey())
    .addColumn('remaining', 'integer', (col) => col.notNull())
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  for (const table of [
    'sandbox_ebarimt_outages',
    'sandbox_ebarimt_receipts',
    'sandbox_qpay_payments',
    'sandbox_qpay_invoices',
    'sandbox_qpay_tokens',
  ]) {
    await db.schema.dropTable(table).execute();
  }
}
