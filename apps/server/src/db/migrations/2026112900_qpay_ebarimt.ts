import { type Kysely, sql } from 'kysely';

/**
 * QPay and e-barimt (product.md §12): the QPay invoice opened for one of ours (its QR and bank
 * links, kept so a reloaded page shows the same ones), the company an invoice's receipt goes to,
 * and the e-barimt receipts — at most one citizen and one company receipt per invoice, each
 * issued once, retried until the tax authority takes it.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('qpay_invoices')
    .addColumn('invoice_id', 'text', (col) =>
      col.primaryKey().references('payment_invoices.invoice_id').onDelete('cascade'),
    )
    .addColumn('qpay_invoice_id', 'text', (col) => col.notNull().unique())
    .addColumn('qr_text', 'text', (col) => col.notNull())
    .addColumn('qr_image', 'text', (col) => col.notNull())
    .addColumn('short_url', 'text', (col) => col.notNull())
    .addColumn('deeplinks', 'jsonb', (col) => col.notNull())
    .addColumn('created_at', 'timestamptz', (col) => col.notNull())
    .addColumn('cancelled_at', 'timestamptz')
    .execute();

  await db.schema
    .alterTable('payment_invoices')
    // The company the e-barimt goes to, chosen at checkout (its name as the tax authority has it).
    .addColumn('ebarimt_registry', 'text')
    .addColumn('ebarimt_tin', 'text')
    .addColumn('ebarimt_company', 'text')
    .execute();

  await db.schema
    .createTable('ebarimt_receipts')
    .addColumn('invoice_id', 'text', (col) =>
      col.notNull().references('payment_invoices.invoice_id').onDelete('cascade'),
    )
    .addColumn('kind', 'text', (col) => col.notNull().check(sql`kind in ('citizen', 'company')`))
    .addColumn('status', 'text', (col) =>
      col
        .notNull()
        .defaultTo('pending')
        .check(
          sql`status in ('pending', 'issuing', 'issued', 'superseded', 'void_pending', 'voiding', 'voided')`,
        ),
    )
    .addColumn('company_registry', 'text')
    .addColumn('company_tin', 'text')
    .addColumn('company_name', 'text')
    .addColumn('attempts', 'integer', (col) => col.notNull().defaultTo(0))
    // When the next step (issue, retry, void) is due; while claimed, when the claim runs out.
    .addColumn('next_attempt_at', 'timestamptz')
    .addColumn('bill_id', 'text')
    .addColumn('lottery', 'text')
    .addColumn('qr_data', 'text')
    .addColumn('receipt_date', 'text')
    .addColumn('issued_at', 'timestamptz')
    .addColumn('last_error', 'text')
    .addColumn('created_at', 'timestamptz', (col) => col.notNull())
    // Never two citizen (or two company) receipts for one invoice.
    .addPrimaryKeyConstraint('ebarimt_receipts_pk', ['invoice_id', 'kind'])
    .execute();
  await sql`create index ebarimt_receipts_due_idx on ebarimt_receipts (next_attempt_at, invoice_id) where next_attempt_at is not null`.execute(
    db,
  );
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('ebarimt_receipts').execute();
  for (const column of ['ebarimt_registry', 'ebarimt_tin', 'ebarimt_company']) {
    await db.schema.alterTable('payment_invoices').dropColumn(column).execute();
  }
  await db.schema.dropTable('qpay_invoices').execute();
}
