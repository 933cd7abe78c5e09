import type { Deps } from '../../deps.js';
import { subscriberName } from '../providers/payment-log.js';
import './tables.js';

/** Who paid for what, copied onto every log line of an invoice. */
export interface InvoiceParty {
  orderNumber: string;
  userId: string;
  subscriberName: string;
  packageName: string;
  purchasePrice: number;
}

/** The invoice's payer and plan for log lines; null when the invoice is unknown. */
export async function findInvoiceParty(
  deps: Pick<Deps, 'db'>,
  invoiceId: string,
): Promise<InvoiceParty | null> {
  const row = await deps.db
    .selectFrom('payment_invoices as i')
    .innerJoin('users as u', 'u.id', 'i.user_id')
    .innerJoin('packages as p', 'p.id', 'i.package_id')
    .select([
      'i.invoice_id',
      'i.user_id',
      'i.amount',
      'u.first_name',
      'u.last_name',
      'u.username',
      'p.name_en',
    ])
    .where('i.invoice_id', '=', invoiceId)
    .executeTakeFirst();
  if (!row) return null;
  return {
    orderNumber: row.invoice_id,
    userId: row.user_id,
    subscriberName: subscriberName(row),
    packageName: row.name_en,
    purchasePrice: row.amount,
  };
}
