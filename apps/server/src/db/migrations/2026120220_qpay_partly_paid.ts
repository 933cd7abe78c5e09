import type { Kysely } from 'kysely';

/**
 * QPay's PARTIAL payments pay part of an invoice, which stays open: the QPay invoice's row keeps
 * what they took, so the shopper's page can say so (premium/qpay-payments.ts, invoice-view.ts).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .alterTable('qpay_invoices')
    .addColumn('partly_paid', 'integer', (col) => col.notNull().defaultTo(0))
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('qpay_invoices').dropColumn('partly_paid').execute();
}
