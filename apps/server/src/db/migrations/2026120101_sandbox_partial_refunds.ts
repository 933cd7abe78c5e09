import { type Kysely, sql } from 'kysely';

/**
 * The card sandbox refunds as a real gateway does: several partial refunds of one capture (the
 * card page's payment, `session`, or a saved-card charge, `charge:<attempt>`) up to what it took,
 * each named by the merchant's `refund_id`, so the same refund asked twice is made once. The one
 * refund an invoice had so far becomes its `legacy` refund of the capture that paid it.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .alterTable('sandbox_gateway_refunds')
    .addColumn('refund_id', 'text', (col) => col.notNull().defaultTo('legacy'))
    .addColumn('reference', 'text', (col) => col.notNull().defaultTo('session'))
    .execute();
  await sql`
    update sandbox_gateway_refunds r set reference = 'charge:' || c.attempt
    from sandbox_gateway_charges c
    where c.client_id = r.client_id and c.invoice_id = r.invoice_id and c.status = 'paid'
      and not exists (
        select 1 from sandbox_gateway_payments p
        where p.client_id = r.client_id and p.invoice_id = r.invoice_id and p.status = 'paid')`.execute(db);
  await sql`alter table sandbox_gateway_refunds alter column refund_id drop default, alter column reference drop default`.execute(
    db,
  );
  await sql`alter table sandbox_gateway_refunds drop constraint sandbox_gateway_refunds_pk`.execute(db);
  await sql`alter table sandbox_gateway_refunds add constraint sandbox_gateway_refunds_pk primary key (client_id, invoice_id, refund_id)`.execute(
    db,
  );
}

export async function down(db: Kysely<unknown>): Promise<void> {
  // One refund an invoice again: the first of each invoice is kept.
  await sql`
    delete from sandbox_gateway_refunds r using sandbox_gateway_refunds f
    where f.client_id = r.client_id and f.invoice_id = r.invoice_id
      and (f.created_at, f.refund_id) < (r.created_at, r.refund_id)`.execute(db);
  await sql`alter table sandbox_gateway_refunds drop constraint sandbox_gateway_refunds_pk`.execute(db);
  await sql`alter table sandbox_gateway_refunds add constraint sandbox_gateway_refunds_pk primary key (client_id, invoice_id)`.execute(
    db,
  );
  await db.schema
    .alterTable('sandbox_gateway_refunds')
    .dropColumn('refund_id')
    .dropColumn('reference')
    .execute();
}
