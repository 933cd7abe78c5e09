import { type Kysely, type QueryCreator, sql } from 'kysely';
import type { Database } from '../../db/schema.js';
import type { ReceiptKind } from './tables.js';
import './tables.js';

export interface ReceiptCompany {
  registry: string;
  tin: string;
  name: string;
}

/** An invoice just marked paid, as a statement's CTE `paid` answers it (activation-once.ts). */
interface PaidInvoice {
  invoice_id: string;
  ebarimt_registry: string | null;
  ebarimt_tin: string | null;
  ebarimt_company: string | null;
}
type CompanyColumn = 'ebarimt_registry' | 'ebarimt_tin' | 'ebarimt_company';

/**
 * Asks for the e-barimt of an invoice that has just been paid, in the statement that marks it
 * paid (activation-once.ts builds it around this CTE), so no paid invoice goes without one and it
 * costs no round trip of its own; the job queue issues it. A company receipt when the buyer gave
 * the company's registry, TIN and name, else a citizen's. One per invoice and kind (the primary
 * key): a second ask is a no-op.
 */
export function receiptRequestOfPaid<Paid extends PaidInvoice>(
  db: QueryCreator<Database & { paid: Paid }>,
  now: Date,
) {
  const given = (column: CompanyColumn) => sql<boolean>`coalesce(${sql.ref(`paid.${column}`)}, '') <> ''`;
  const company = sql<boolean>`(${given('ebarimt_registry')} and ${given('ebarimt_tin')} and ${given('ebarimt_company')})`;
  const ifCompany = (column: CompanyColumn) =>
    sql<string | null>`case when ${company} then ${sql.ref(`paid.${column}`)} end`;
  const at = sql<Date>`${now}::timestamptz`;
  return db
    .insertInto('ebarimt_receipts')
    .columns([
      'invoice_id',
      'kind',
      'company_registry',
      'company_tin',
      'company_name',
      'next_attempt_at',
      'created_at',
    ])
    .expression((eb) =>
      eb
        .selectFrom('paid')
        .select([
          'paid.invoice_id',
          sql<ReceiptKind>`case when ${company} then 'company' else 'citizen' end`.as('kind'),
          ifCompany('ebarimt_registry').as('company_registry'),
          ifCompany('ebarimt_tin').as('company_tin'),
          ifCompany('ebarimt_company').as('company_name'),
          at.as('next_attempt_at'),
          at.as('created_at'),
        ]),
    )
    .onConflict((oc) => oc.columns(['invoice_id', 'kind']).doNothing());
}

/**
 * A receipt's lottery number and QR data are kept only while the receipt is in force, to print
 * it (PosAPI 3.0 forbids keeping them otherwise; decision 0033): one leaving `issued` drops them.
 */
export const NO_RECEIPT_CODES = { lottery: null, qr_data: null };

/**
 * Takes back the e-barimt of a refunded invoice (console/refunds.ts), in the refund's transaction:
 * a receipt not issued yet is superseded (one being issued right now is voided once issued), an
 * issued one, citizen's or company's, is voided by the job from now on. Answers how many issued
 * receipts are to be voided.
 */
export async function voidInvoiceReceipts(
  db: Kysely<Database>,
  invoiceId: string,
  now: Date,
): Promise<number> {
  await db
    .updateTable('ebarimt_receipts')
    .set({ status: 'superseded', next_attempt_at: null })
    .where('invoice_id', '=', invoiceId)
    .where('status', 'in', ['pending', 'issuing'])
    .execute();
  const voiding = await db
    .updateTable('ebarimt_receipts')
    .set({ status: 'void_pending', next_attempt_at: now, ...NO_RECEIPT_CODES })
    .where('invoice_id', '=', invoiceId)
    .where('status', '=', 'issued')
    .returning('kind')
    .execute();
  return voiding.length;
}
