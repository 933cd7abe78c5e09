import type { PaymentMethod } from '@tunes/shared/billing';
import type { ErrorLog } from '../../lib/logging.js';
import { GatewayError } from '../providers/exchange.js';
import { writePaymentLog } from '../providers/payment-log.js';
import type { CaptureDeps } from './capture-once.js';
import { findInvoiceParty } from './invoice-party.js';
import { recordRefund } from './ledger.js';
import { premiumMessages } from './messages.js';
import { notifyOnce } from './notices.js';
import './tables.js';

interface SurplusCapture {
  id: string;
  invoiceId: string;
  userId: string;
  method: PaymentMethod;
  reference: string;
  amount: number;
  currency: string;
}

/**
 * Gives a surplus capture back at its provider, once (our refund id names the capture), writes
 * the refund to the ledger and tells the payer. A provider that cannot be reached now leaves
 * it to `refundOpenSurplus`, which the periodic check runs.
 */
export async function refundSurplus(
  deps: CaptureDeps,
  capture: SurplusCapture,
  log?: ErrorLog,
): Promise<boolean> {
  const refundId = `surplus:${capture.id}`;
  const party = await findInvoiceParty(deps, capture.invoiceId);
  try {
    const exchange =
      capture.method === 'qpay'
        ? await deps.qpay.refundPayment(capture.reference)
        : await deps.paymentGateway.refund({
            invoiceId: capture.invoiceId,
            amount: capture.amount,
            currency: capture.currency,
            refundId,
            reference: capture.reference,
          });
    await writePaymentLog(deps, {
      ...party,
      orderNumber: capture.invoiceId,
      currentProcess: 'refund',
      type: 'info',
      message: `surplus ${capture.method} capture ${capture.reference} refunded`,
      request: exchange.request,
      response: exchange.response,
    });
  } catch (error) {
    if (!(error instanceof GatewayError)) throw error;
    await writePaymentLog(deps, {
      ...party,
      orderNumber: capture.invoiceId,
      currentProcess: 'refund',
      type: 'error',
      message: `surplus refund failed (${error.message}); retried by the periodic check`,
      request: error.request,
      response: error.response,
    });
    return false;
  }
  const recorded = await recordRefund(deps.db, {
    invoiceId: capture.invoiceId,
    method: capture.method === 'qpay' ? 'qpay' : 'card',
    reference: refundId,
    refundOf: capture.id,
    amount: capture.amount,
    currency: capture.currency,
    reason: 'surplus capture',
    now: deps.clock.now(),
  });
  if (recorded) {
    const price = { amount: capture.amount, currency: capture.currency };
    await notifyOnce(
      deps,
      {
        key: `surplus:${capture.id}`,
        userId: capture.userId,
        text: (lang) => premiumMessages.surplusRefunded(lang, price),
      },
      log,
    );
  }
  return true;
}

/** Surplus captures not yet given back (a provider was down): refunded now, oldest first. */
export async function refundOpenSurplus(deps: CaptureDeps, limit = 100, log?: ErrorLog): Promise<number> {
  const open = await deps.db
    .selectFrom('payment_ledger as c')
    .innerJoin('payment_invoices as i', 'i.invoice_id', 'c.invoice_id')
    .select(['c.id', 'c.invoice_id', 'i.user_id', 'c.method', 'c.reference', 'c.amount', 'c.currency'])
    .where('c.outcome', '=', 'surplus')
    .where((eb) =>
      eb.not(
        eb.exists(
          eb
            .selectFrom('payment_ledger as r')
            .select('r.id')
            .whereRef('r.refund_of', '=', 'c.id')
            .where('r.entry', '=', 'refund'),
        ),
      ),
    )
    .orderBy('c.id')
    .limit(limit)
    .execute();
  for (const capture of open) {
    if (!capture.invoice_id || (capture.method !== 'card' && capture.method !== 'qpay')) continue;
    await refundSurplus(
      deps,
      {
        id: capture.id,
        invoiceId: capture.invoice_id,
        userId: capture.user_id,
        method: capture.method,
        reference: capture.reference,
        amount: capture.amount,
        currency: capture.currency,
      },
      log,
    );
  }
  return open.length;
}
