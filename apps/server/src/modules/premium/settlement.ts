import { RENEWAL_RETRY_DAYS } from '@tunes/shared/billing';
import type { InvoiceStatus } from '@tunes/shared/premium-rules';
import { payments } from '../../lib/metrics.js';
import { activateInvoice } from './activation-once.js';
import { GatewayError, type PaymentGateway } from './gateway.js';
import type { PaymentDeps } from './payment-deps.js';
import { findInvoiceParty, type PaymentLogEntry, type PaymentStep, writePaymentLog } from './payment-log.js';
import { keepCard } from './saved-cards.js';
import './tables.js';

/** Pending invoices older than this are given up as expired by the periodic check. */
export const INVOICE_TTL_MS = 24 * 60 * 60 * 1000;
/** Days after a period's end when its renewal invoice can no longer be paid (after the last retry). */
const RENEWAL_PAYABLE_DAYS = (RENEWAL_RETRY_DAYS.at(-1) ?? 0) + 1;

export type SettlementDeps = Pick<PaymentDeps, 'db' | 'clock' | 'paymentGateway' | 'reportError'>;

/**
 * Confirms an invoice with the provider server-to-server and applies the answer: activates a
 * paid one (once, activation-once.ts), closes a declined or cancelled one. Every return,
 * callback and periodic check goes through here. Answers the invoice's status afterwards, or
 * null for an unknown invoice.
 */
export async function settleInvoice(
  deps: SettlementDeps,
  invoiceId: string,
  step: PaymentStep,
): Promise<InvoiceStatus | null> {
  const { db } = deps;
  const invoice = await db
    .selectFrom('payment_invoices')
    .select([
      'status',
      'amount',
      'currency',
      'created_at',
      'user_id',
      'save_card',
      'kind',
      'method',
      'period_start',
    ])
    .where('invoice_id', '=', invoiceId)
    .executeTakeFirst();
  if (!invoice) return null;
  if (invoice.status !== 'created') return invoice.status;

  const party = await findInvoiceParty(deps, invoiceId);
  const log = (entry: Omit<PaymentLogEntry, 'orderNumber' | 'currentProcess'>) =>
    writePaymentLog(deps, { ...party, orderNumber: invoiceId, currentProcess: step, ...entry });

  let check: Awaited<ReturnType<PaymentGateway['checkPayment']>>;
  try {
    check = await deps.paymentGateway.checkPayment(invoiceId);
  } catch (error) {
    if (!(error instanceof GatewayError)) throw error;
    await log({ type: 'error', message: error.message, request: error.request, response: error.response });
    return 'created';
  }
  const { status, amount, currency } = check.result;
  const exchange = { request: check.request, response: check.response };
  await log({ type: 'info', message: `provider status: ${status}`, ...exchange });

  if (status === 'paid') {
    if (amount !== invoice.amount || currency !== invoice.currency) {
      await log({
        type: 'error',
        message: `provider reports ${amount} ${currency}, invoice is ${invoice.amount} ${invoice.currency}; not activated`,
      });
      return 'created';
    }
    if (check.result.card) {
      const { card } = check.result;
      await db
        .updateTable('payment_invoices')
        .set({ card_brand: card.brand, card_last4: card.last4 })
        .where('invoice_id', '=', invoiceId)
        .execute();
      if (invoice.save_card) await keepCard(deps, invoice.user_id, card);
    }
    const subscriptionId = await activateInvoice(deps, invoiceId);
    if (subscriptionId) {
      await writePaymentLog(deps, {
        ...party,
        orderNumber: invoiceId,
        currentProcess: 'activation',
        type: 'info',
        message: `subscription ${subscriptionId} activated`,
      });
    }
    return 'paid';
  }

  if (status === 'declined' || status === 'cancelled') {
    const closed = await db
      .updateTable('payment_invoices')
      .set({ status, settled_at: deps.clock.now() })
      .where('invoice_id', '=', invoiceId)
      .where('status', '=', 'created')
      .returning('status')
      .executeTakeFirst();
    if (closed) {
      payments.inc({ method: invoice.method, kind: invoice.kind, outcome: status });
      await log({ type: 'info', message: `invoice ${status}` });
    }
    return closed?.status ?? (await currentStatus(deps, invoiceId));
  }

  if (deps.clock.now().getTime() > invoiceExpiry(invoice).getTime()) {
    const expired = await db
      .updateTable('payment_invoices')
      .set({ status: 'expired', settled_at: deps.clock.now() })
      .where('invoice_id', '=', invoiceId)
      .where('status', '=', 'created')
      .returning('status')
      .executeTakeFirst();
    if (expired) {
      payments.inc({ method: invoice.method, kind: invoice.kind, outcome: 'expired' });
      await log({ type: 'warning', message: 'invoice expired unpaid' });
    }
    return expired?.status ?? (await currentStatus(deps, invoiceId));
  }
  return 'created';
}

/**
 * A checkout is given up a day after it was made; a renewal invoice (a payment link sent before
 * the end, or "pay now" after a failed charge) stays payable until the renewal's last retry.
 */
function invoiceExpiry(invoice: { created_at: Date; kind: string; period_start: Date | null }): Date {
  if (invoice.kind === 'renewal' && invoice.period_start) {
    return new Date(invoice.period_start.getTime() + RENEWAL_PAYABLE_DAYS * 86_400_000);
  }
  return new Date(invoice.created_at.getTime() + INVOICE_TTL_MS);
}

async function currentStatus(deps: Pick<PaymentDeps, 'db'>, invoiceId: string): Promise<InvoiceStatus> {
  const row = await deps.db
    .selectFrom('payment_invoices')
    .select('status')
    .where('invoice_id', '=', invoiceId)
    .executeTakeFirstOrThrow();
  return row.status;
}

/**
 * Terms: the service is suspended if unpaid. A card period bought here has no stored card, so it
 * renews only when a renewal payment arrives; the subscriptions list already stops counting it
 * at its end date, and this records that the unpaid renewal lapsed by turning auto-renew off.
 * App Store and Google Play periods are renewed by the stores and left alone.
 */
export async function lapseUnpaidRenewals(deps: Pick<PaymentDeps, 'db' | 'clock'>): Promise<number> {
  const now = deps.clock.now();
  const lapsed = await deps.db
    .updateTable('subscriptions')
    .set({ is_auto_renew: false, updated_at: now })
    .where('is_auto_renew', '=', true)
    .where('source_type', 'in', ['Web', 'Voucher'])
    // Periods the billing lifecycle renews (billing/renewal.ts) are left to it.
    .where('next_billing_at', 'is', null)
    .where('end_date', '<=', now)
    .executeTakeFirst();
  return Number(lapsed.numUpdatedRows);
}

/** The periodic check of product.md §10: settles invoices whose shopper never came back. */
export async function checkPendingInvoices(deps: SettlementDeps, limit = 100): Promise<number> {
  const pending = await deps.db
    .selectFrom('payment_invoices')
    .select('invoice_id')
    .where('status', '=', 'created')
    .where('provider_token', 'is not', null)
    .orderBy('created_at')
    .limit(limit)
    .execute();
  for (const { invoice_id } of pending) {
    try {
      await settleInvoice(deps, invoice_id, 'check');
    } catch (error) {
      deps.reportError(error, `periodic check of invoice ${invoice_id} failed`);
    }
  }
  return pending.length;
}
