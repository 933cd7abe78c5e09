import type { Deps } from '@tunes/server/deps';
import './tables.js';

/**
 * What `rest/transactions` answers for a merchant's invoice: its payment page's session, its
 * saved-card charges and its refunds, oldest first. Read-only: the books check compares it with
 * the ledger. An invoice the sandbox never saw has empty lists, not a 404.
 */
export async function sandboxTransactions(deps: Pick<Deps, 'db'>, clientId: string, invoiceId: string) {
  const { db } = deps;
  const [payment, charges, refunds] = await Promise.all([
    db
      .selectFrom('sandbox_gateway_payments')
      .select(['status', 'amount', 'currency', 'created_at', 'settled_at'])
      .where('client_id', '=', clientId)
      .where('invoice_id', '=', invoiceId)
      .executeTakeFirst(),
    db
      .selectFrom('sandbox_gateway_charges')
      .select(['attempt', 'status', 'amount', 'currency', 'created_at'])
      .where('client_id', '=', clientId)
      .where('invoice_id', '=', invoiceId)
      .orderBy('attempt')
      .execute(),
    db
      .selectFrom('sandbox_gateway_refunds')
      .select(['refund_id', 'reference', 'amount', 'currency', 'created_at'])
      .where('client_id', '=', clientId)
      .where('invoice_id', '=', invoiceId)
      .orderBy('created_at')
      .orderBy('refund_id')
      .execute(),
  ]);
  return {
    invoice_id: invoiceId,
    payment: payment
      ? {
          status: payment.status,
          amount: payment.amount,
          currency: payment.currency,
          created_at: payment.created_at.toISOString(),
          settled_at: payment.settled_at?.toISOString() ?? null,
        }
      : null,
    charges: charges.map((charge) => ({ ...charge, created_at: charge.created_at.toISOString() })),
    refunds: refunds.map((refund) => ({ ...refund, created_at: refund.created_at.toISOString() })),
  };
}
