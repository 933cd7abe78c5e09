import { type Kysely, sql } from 'kysely';

/**
 * The payment ledger (product.md §12, "Money"): one row for every capture, refund and void at a
 * provider (the card gateway, QPay), and for value given without money (a voucher, an operator's
 * extension). The books check (billing/books-check.ts) compares it with the providers, the
 * invoices and the periods. Invoices gain `refunded` and `partly_refunded`; what was paid before
 * the ledger existed is written in as its first rows.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('payment_ledger')
    .addColumn('id', 'bigserial', (col) => col.primaryKey())
    .addColumn('invoice_id', 'text', (col) => col.references('payment_invoices.invoice_id'))
    .addColumn('subscription_id', 'uuid')
    .addColumn('entry', 'text', (col) => col.notNull().check(sql`entry in ('capture', 'refund', 'void')`))
    .addColumn('method', 'text', (col) =>
      col.notNull().check(sql`method in ('card', 'qpay', 'voucher', 'extension')`),
    )
    // The provider's name for what happened: `session` (the card page), `charge:<attempt>` (a saved
    // card), a QPay payment id, `surplus:<capture id>` or `operator:<uuid>` for a refund.
    .addColumn('reference', 'text', (col) => col.notNull())
    .addColumn('amount', 'integer', (col) => col.notNull().check(sql`amount >= 0`))
    .addColumn('currency', 'text', (col) => col.notNull())
    // A capture is `applied` (it paid its invoice) or `surplus` (it is given back automatically).
    .addColumn('outcome', 'text', (col) => col.check(sql`outcome in ('applied', 'surplus')`))
    .addColumn('reason', 'text')
    // A refund names the capture it gives back.
    .addColumn('refund_of', 'bigint', (col) => col.references('payment_ledger.id'))
    .addColumn('created_at', 'timestamptz', (col) => col.notNull())
    .execute();
  await sql`create unique index payment_ledger_once_uq on payment_ledger (invoice_id, entry, method, reference)`.execute(
    db,
  );
  await db.schema
    .createIndex('payment_ledger_refund_of_idx')
    .on('payment_ledger')
    .column('refund_of')
    .execute();
  await sql`create index payment_ledger_surplus_idx on payment_ledger (id) where outcome = 'surplus'`.execute(
    db,
  );

  await sql`alter table payment_invoices drop constraint if exists payment_invoices_status_check`.execute(db);
  await sql`alter table payment_invoices add constraint payment_invoices_status_check check (status in ('created', 'paid', 'declined', 'cancelled', 'failed', 'expired', 'refunded', 'partly_refunded'))`.execute(
    db,
  );
  // The card page of an invoice closed at the gateway (voided), so nobody can pay it afterwards.
  await db.schema.alterTable('payment_invoices').addColumn('card_voided_at', 'timestamptz').execute();
  // Pages of invoices closed before the ledger count as closed: a declined or cancelled page is
  // closed at the gateway, an expired one was left to the gateway's own expiry, and a paid one's
  // capture is the opening row below. Otherwise the check closing leftover pages would find the
  // old paid pages "open", see their payment and take it for a second one.
  await sql`update payment_invoices set card_voided_at = coalesce(settled_at, created_at)
    where status <> 'created' and provider_token is not null`.execute(db);

  // What was paid and refunded before the ledger: its opening rows.
  await sql`
    insert into payment_ledger (invoice_id, subscription_id, entry, method, reference, amount, currency, outcome, reason, created_at)
    select invoice_id, subscription_id, 'capture', method, 'opening', amount, currency, 'applied', 'opening balance', coalesce(settled_at, created_at)
    from payment_invoices where status = 'paid' and amount > 0`.execute(db);
  await sql`
    insert into payment_ledger (invoice_id, entry, method, reference, amount, currency, reason, refund_of, created_at)
    select r.invoice_id, 'refund', i.method, 'opening', r.amount, r.currency, r.reason, l.id, coalesce(r.refunded_at, r.created_at)
    from payment_refunds r
    join payment_invoices i on i.invoice_id = r.invoice_id
    join payment_ledger l on l.invoice_id = r.invoice_id and l.reference = 'opening' and l.entry = 'capture'
    where r.status = 'done'`.execute(db);
  await sql`
    update payment_invoices set status = 'refunded'
    where invoice_id in (select invoice_id from payment_refunds where status = 'done')`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`update payment_invoices set status = 'paid' where status in ('refunded', 'partly_refunded')`.execute(
    db,
  );
  await sql`alter table payment_invoices drop constraint if exists payment_invoices_status_check`.execute(db);
  await sql`alter table payment_invoices add constraint payment_invoices_status_check check (status in ('created', 'paid', 'declined', 'cancelled', 'failed', 'expired'))`.execute(
    db,
  );
  await db.schema.alterTable('payment_invoices').dropColumn('card_voided_at').execute();
  await db.schema.dropTable('payment_ledger').execute();
}
