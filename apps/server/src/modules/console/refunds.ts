import type { Deps } from '../../deps.js';
import { AppError, conflict, notFound } from '../../lib/errors.js';
import { GatewayError, type PaymentGateway } from '../premium/gateway.js';
import { audit } from './audit.js';
import { endPeriodNow } from './support.js';
import './tables.js';

type RefundDeps = Pick<Deps, 'db' | 'clock'> & { paymentGateway: PaymentGateway };

/**
 * Refunds a paid card payment through the gateway adapter, once: the refund row is claimed
 * first (its primary key is the invoice, so of refunds asked at once one claims it and the
 * others get 409), then the gateway is asked; on success the period the payment paid for ends
 * now, and the refund, the subscription change and the audit entry are written together.
 */
export async function refundPayment(deps: RefundDeps, operatorId: string, invoiceId: string, reason: string) {
  const invoice = await deps.db
    .selectFrom('payment_invoices')
    .select(['invoice_id', 'status', 'amount', 'currency', 'method', 'subscription_id', 'user_id'])
    .where('invoice_id', '=', invoiceId)
    .executeTakeFirst();
  if (!invoice) throw notFound('No such payment.');
  if (invoice.status !== 'paid') throw conflict('Only a paid payment can be refunded.', 'not_paid');
  if (invoice.method !== 'card') {
    throw conflict('Payments by this method are refunded outside the console.', 'not_refundable');
  }
  const now = deps.clock.now();
  const claimed = await deps.db
    .insertInto('payment_refunds')
    .values({
      invoice_id: invoiceId,
      amount: invoice.amount,
      currency: invoice.currency,
      reason,
      status: 'pending',
      operator_id: operatorId,
      created_at: now,
    })
    .onConflict((oc) => oc.column('invoice_id').doNothing())
    .returning('invoice_id')
    .executeTakeFirst();
  if (!claimed) throw conflict('This payment was already refunded.', 'already_refunded');

  try {
    await deps.paymentGateway.refund({ invoiceId, amount: invoice.amount, currency: invoice.currency });
  } catch (error) {
    const alreadyAtGateway =
      error instanceof GatewayError &&
      typeof error.response === 'object' &&
      error.response !== null &&
      (error.response as { error?: unknown }).error === 'already_refunded';
    if (!alreadyAtGateway) {
      await deps.db
        .deleteFrom('payment_refunds')
        .where('invoice_id', '=', invoiceId)
        .where('status', '=', 'pending')
        .execute();
      throw new AppError(502, 'gateway_error', `The gateway refused the refund: ${(error as Error).message}`);
    }
  }

  const refundedAt = deps.clock.now();
  await deps.db.transaction().execute(async (trx) => {
    await trx
      .updateTable('payment_refunds')
      .set({ status: 'done', refunded_at: refundedAt })
      .where('invoice_id', '=', invoiceId)
      .execute();
    // A purchase activated the subscription that names it; a renewal or change names its subscription.
    const activated = await trx
      .selectFrom('subscriptions')
      .select('id')
      .where('invoice_id', '=', invoiceId)
      .executeTakeFirst();
    const subscriptionId = invoice.subscription_id ?? activated?.id;
    if (subscriptionId) await endPeriodNow(trx, subscriptionId, refundedAt);
    await audit(trx, refundedAt, {
      operatorId,
      action: 'payment.refund',
      targetType: 'payment',
      targetId: invoiceId,
      before: { status: invoice.status, subscriptionId: subscriptionId ?? null },
      after: { amount: invoice.amount, currency: invoice.currency, reason, userId: invoice.user_id },
    });
  });
  return {
    invoiceId,
    amount: invoice.amount,
    currency: invoice.currency,
    refundedAt: refundedAt.toISOString(),
  };
}
