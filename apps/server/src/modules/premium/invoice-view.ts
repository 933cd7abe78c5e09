import type { Invoice } from '@tunes/shared/premium';
import { forbidden, notFound } from '../../lib/errors.js';
import { type SettlementDeps, settleInvoice } from './settlement.js';
import './tables.js';

/**
 * One of the user's invoices as the site polls it after checkout. An open invoice is confirmed
 * with the provider first, so a shopper who is back before the callback sees the outcome.
 */
export async function viewInvoice(deps: SettlementDeps, userId: string, invoiceId: string): Promise<Invoice> {
  const owner = await deps.db
    .selectFrom('payment_invoices')
    .select('user_id')
    .where('invoice_id', '=', invoiceId)
    .executeTakeFirst();
  if (!owner) throw notFound('There is no such invoice.');
  if (owner.user_id !== userId) throw forbidden('This invoice belongs to another account.');
  await settleInvoice(deps, invoiceId, 'check');
  return deps.db
    .selectFrom('payment_invoices as i')
    .innerJoin('packages as p', 'p.id', 'i.package_id')
    .select([
      'i.invoice_id as invoiceId',
      'i.status',
      'p.merchant_code as MerchantCode',
      'i.amount',
      'i.currency',
    ])
    .where('i.invoice_id', '=', invoiceId)
    .executeTakeFirstOrThrow();
}
