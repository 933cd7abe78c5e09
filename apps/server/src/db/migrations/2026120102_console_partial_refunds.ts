import { type Kysely, sql } from 'kysely';

/**
 * The console's refunds by amount (console/refunds.ts): an invoice may be refunded in parts, so
 * `payment_refunds` keeps one row per refund, named by its `refund_id` (`operator:<uuid>`, the
 * key the provider knows it by) and the ledger capture it gives back. At most one refund of an
 * invoice is in flight (`pending`) at a time: the partial unique index is the claim.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .alterTable('payment_refunds')
    .addColumn('refund_id', 'text')
    .addColumn('capture_id', 'bigint', (col) => col.references('payment_ledger.id'))
    .execute();
  await sql`update payment_refunds set refund_id = 'opening:' || invoice_id`.execute(db);
  await sql`alter table payment_refunds alter column refund_id set not null`.execute(db);
  await sql`alter table payment_refunds drop constraint payment_refunds_pkey`.execute(db);
  await sql`alter table payment_refunds add constraint payment_refunds_pkey primary key (refund_id)`.execute(
    db,
  );
  await sql`create unique index payment_refunds_pending_uq on payment_refunds (invoice_id) where status = 'pending'`.execute(
    db,
  );
  await db.schema
    .createIndex('payment_refunds_invoice_idx')
    .on('payment_refunds')
    .column('invoice_id')
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  // One refund an invoice again: its latest is kept.
  await sql`
    delete from payment_refunds r using payment_refunds l
    where l.invoice_id = r.invoice_id and (l.created_at, l.refund_id) > (r.created_at, r.refund_id)`.execute(
    db,
  );
  await db.schema.dropIndex('payment_refunds_invoice_idx').execute();
  await db.schema.dropIndex('payment_refunds_pending_uq').execute();
  await sql`alter table payment_refunds drop constraint payment_refunds_pkey`.execute(db);
  await sql`alter table payment_refunds add constraint payment_refunds_pkey primary key (invoice_id)`.execute(
    db,
  );
  await db.schema.alterTable('payment_refunds').dropColumn('refund_id').dropColumn('capture_id').execute();
}
