import type { Deps } from '../../deps.js';
import { AppError, conflict, notFound } from '../../lib/errors.js';
import '../console/tables.js';
import './tables.js';

/**
 * Refunds what the sandbox took for an invoice (a shopper's payment or a saved-card charge),
 * once: the refund's primary key decides between refunds asked at once.
 */
export async function refundSandboxPayment(
  deps: Pick<Deps, 'db' | 'clock'>,
  refund: { clientId: string; invoiceId: string; amount: number; currency: string },
) {
  const { db } = deps;
  const payment = await db
    .selectFrom('sandbox_gateway_payments')
    .select(['amount', 'currency'])
    .where('client_id', '=', refund.clientId)
    .where('invoice_id', '=', refund.invoiceId)
    .where('status', '=', 'paid')
    .executeTakeFirst();
  const charge = payment
    ? undefined
    : await db
        .selectFrom('sandbox_gateway_charges')
        .select(['amount', 'currency'])
        .where('client_id', '=', refund.clientId)
        .where('invoice_id', '=', refund.invoiceId)
        .where('status', '=', 'paid')
        .executeTakeFirst();
  const paid = payment ?? charge;
  if (!paid) throw notFound('Nothing was paid for this invoice.');
  if (refund.currency !== paid.currency || refund.amount > paid.amount) {
    throw new AppError(409, 'amount_mismatch', 'The refund exceeds what was paid.');
  }
  const inserted = await db
    .insertInto('sandbox_gateway_refunds')
    .values({
      client_id: refund.clientId,
      invoice_id: refund.invoiceId,
      amount: refund.amount,
      currency: refund.currency,
      created_at: deps.clock.now(),
    })
    .onConflict((oc) => oc.columns(['client_id', 'invoice_id']).doNothing())
    .returning('invoice_id')
    .executeTakeFirst();
  if (!inserted) throw conflict('This invoice was already refunded.', 'already_refunded');
  return {
    invoice_id: refund.invoiceId,
    status: 'refunded' as const,
    amount: refund.amount,
    currency: refund.currency,
  };
}
