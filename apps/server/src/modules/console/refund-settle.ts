import type { RefundAnswer } from '@tunes/shared/console';
import { API_ERROR_CODES } from '@tunes/shared/error-codes';
import { sql } from 'kysely';
import { conflict } from '../../lib/errors.js';
import { voidInvoiceReceipts } from '../ebarimt/receipt-requests.js';
import { capturesOf, markRefunded, recordRefund } from '../premium/ledger.js';
import { audit } from './audit.js';
import type { Capture, Claim, Executor, Invoice, RefundDeps } from './refund-claim.js';
import './tables.js';

/** Writes a refund the provider confirmed: ledger, status, receipts, access and audit in one transaction. */
export async function settleRefund(
  deps: RefundDeps,
  args: { operatorId: string; invoice: Invoice; capture: Capture; claim: Claim; reason: string },
): Promise<RefundAnswer> {
  const { invoice, capture, claim } = args;
  const refundedAt = deps.clock.now();
  return deps.db.transaction().execute(async (trx) => {
    const done = await trx
      .updateTable('payment_refunds')
      .set({ status: 'done', refunded_at: refundedAt })
      .where('refund_id', '=', claim.refund_id)
      .where('status', '=', 'pending')
      .returning('refund_id')
      .executeTakeFirst();
    if (!done) throw conflict('This refund was already recorded.', API_ERROR_CODES.alreadyRefunded);
    await recordRefund(trx, {
      invoiceId: invoice.invoice_id,
      method: capture.method === 'qpay' ? 'qpay' : 'card',
      reference: claim.refund_id,
      refundOf: capture.id,
      amount: claim.amount,
      currency: capture.currency,
      reason: args.reason,
      now: refundedAt,
    });
    const status = (await markRefunded(trx, invoice.invoice_id)) ?? 'partly_refunded';
    const remaining = (await capturesOf(trx, invoice.invoice_id))
      .filter((each) => each.outcome === 'applied')
      .reduce((sum, each) => sum + Math.max(0, each.amount - each.refunded), 0);
    const voided = await voidInvoiceReceipts(trx, invoice.invoice_id, refundedAt);
    // A purchase activated the subscription that names it; a renewal or change names its subscription.
    const activated = await trx
      .selectFrom('subscriptions')
      .select('id')
      .where('invoice_id', '=', invoice.invoice_id)
      .executeTakeFirst();
    const subscriptionId = invoice.subscription_id ?? activated?.id ?? null;
    const periodEnded =
      status === 'refunded' && subscriptionId !== null && invoice.kind !== 'change'
        ? await endRefundedPeriod(trx, subscriptionId, invoice, refundedAt)
        : false;
    await audit(trx, refundedAt, {
      operatorId: args.operatorId,
      action: 'payment.refund',
      targetType: 'payment',
      targetId: invoice.invoice_id,
      before: { status: invoice.status, subscriptionId },
      after: {
        amount: claim.amount,
        currency: capture.currency,
        reason: args.reason,
        userId: invoice.user_id,
        status,
        remaining,
        refundId: claim.refund_id,
        periodEnded,
      },
    });
    return {
      invoiceId: invoice.invoice_id,
      amount: claim.amount,
      currency: capture.currency,
      refundedAt: refundedAt.toISOString(),
      status,
      remaining,
      receipt: { voided: voided > 0, reissued: false as const },
    };
  });
}

/**
 * A whole refund of a purchase or renewal takes back what it bought when it paid the
 * subscription's latest period (no later renewal backs it): access ends now if it still runs, and
 * the subscription renews no more, even when the period has just ended and its renewal is due.
 * A refund of an earlier period leaves the current one, paid by another invoice, alone; a plan
 * change's difference given back leaves the period, which other money paid. Answers whether it
 * ended the subscription. Which period is later is told by the periods, not by when they were
 * paid: the due jobs can charge two months' renewals in one run, at one instant.
 */
async function endRefundedPeriod(
  trx: Executor,
  subscriptionId: string,
  invoice: { invoice_id: string; period_start: Date | null },
  now: Date,
): Promise<boolean> {
  let paidRenewals = trx
    .selectFrom('payment_invoices')
    .select('invoice_id')
    .where('subscription_id', '=', subscriptionId)
    .where('invoice_id', '<>', invoice.invoice_id)
    .where('kind', '=', 'renewal')
    .where('status', 'in', ['paid', 'partly_refunded']);
  // A purchase paid the first period, so every renewal of its subscription comes after it.
  if (invoice.period_start) paidRenewals = paidRenewals.where('period_start', '>', invoice.period_start);
  const later = await paidRenewals.executeTakeFirst();
  if (later) return false;
  await trx
    .updateTable('subscriptions')
    .set({
      end_date: sql<Date>`least(end_date, ${now})`,
      is_auto_renew: false,
      cancelled_at: now,
      next_billing_at: null,
      grace_until: null,
      updated_at: now,
    })
    .where('id', '=', subscriptionId)
    .execute();
  return true;
}
