import { type PaymentMethod, RENEWAL_RETRY_DAYS } from '@tunes/shared/billing';
import type { InvoiceStatus } from '@tunes/shared/premium-rules';
import { payments } from '../../lib/metrics.js';
import { activateInvoice } from './activation-once.js';
import { type Exchange, GatewayError, type ProviderCard, type ProviderStatus } from './gateway.js';
import type { PaymentDeps } from './payment-deps.js';
import { findInvoiceParty, type PaymentLogEntry, type PaymentStep, writePaymentLog } from './payment-log.js';
import { cancelQpayInvoice, checkQpayPayment, qpayInvoiceOf } from './qpay-payments.js';
import { keepCard } from './saved-cards.js';
import './tables.js';

/** Pending invoices older than this are given up as expired by the periodic check. */
export const INVOICE_TTL_MS = 24 * 60 * 60 * 1000;
/** Days after a period's end when its renewal invoice can no longer be paid (after the last retry). */
const RENEWAL_PAYABLE_DAYS = (RENEWAL_RETRY_DAYS.at(-1) ?? 0) + 1;

export type SettlementDeps = Pick<PaymentDeps, 'db' | 'clock' | 'paymentGateway' | 'qpay' | 'reportError'>;

/** A provider's answer about an invoice, whichever provider it was opened with. */
interface ProviderAnswer {
  method: PaymentMethod;
  status: ProviderStatus;
  amount: number;
  currency: string;
  card?: ProviderCard | null | undefined;
}

type StepLog = (entry: Omit<PaymentLogEntry, 'orderNumber' | 'currentProcess'>) => Promise<void>;

/**
 * Asks each provider the invoice was opened with: the card gateway (a card session, or no QPay
 * invoice) and QPay (a QPay invoice; a renewal may have both). A payment at either wins; closed
 * only when every one says so; null when one could not be asked (the invoice stays open).
 */
async function askProviders(
  deps: SettlementDeps,
  invoiceId: string,
  invoice: { provider_token: string | null },
  log: StepLog,
): Promise<ProviderAnswer | null> {
  const qpayInvoice = await qpayInvoiceOf(deps, invoiceId);
  const answers: (ProviderAnswer | null)[] = [];
  const ask = async (
    method: PaymentMethod,
    check: () => Promise<Exchange<Omit<ProviderAnswer, 'method'>>>,
  ) => {
    try {
      const exchange = await check();
      const { request, response } = exchange;
      const name = method === 'qpay' ? 'QPay' : 'provider';
      await log({ type: 'info', message: `${name} status: ${exchange.result.status}`, request, response });
      answers.push({ method, ...exchange.result });
    } catch (error) {
      if (!(error instanceof GatewayError)) throw error;
      await log({ type: 'error', message: error.message, request: error.request, response: error.response });
      answers.push(null);
    }
  };
  if (!qpayInvoice || invoice.provider_token) {
    await ask('card', () => deps.paymentGateway.checkPayment(invoiceId));
  }
  if (qpayInvoice) await ask('qpay', () => checkQpayPayment(deps, qpayInvoice.qpay_invoice_id));

  const paid = answers.find((answer) => answer?.status === 'paid');
  if (paid) return paid;
  if (answers.some((answer) => answer === null)) return null;
  const closed = answers.every((answer) => answer?.status === 'declined' || answer?.status === 'cancelled');
  return closed ? (answers[0] ?? null) : { method: 'card', status: 'pending', amount: 0, currency: '' };
}

/**
 * Confirms an invoice with its providers server-to-server and applies the answer: activates a
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
      'provider_token',
    ])
    .where('invoice_id', '=', invoiceId)
    .executeTakeFirst();
  if (!invoice) return null;
  if (invoice.status !== 'created') return invoice.status;

  const party = await findInvoiceParty(deps, invoiceId);
  const log: StepLog = (entry) =>
    writePaymentLog(deps, { ...party, orderNumber: invoiceId, currentProcess: step, ...entry });

  const answer = await askProviders(deps, invoiceId, invoice, log);
  if (!answer) return 'created';
  const { status, amount, currency } = answer;

  if (status === 'paid') {
    if (amount !== invoice.amount || currency !== invoice.currency) {
      await log({
        type: 'error',
        message: `provider reports ${amount} ${currency}, invoice is ${invoice.amount} ${invoice.currency}; not activated`,
      });
      return 'created';
    }
    if (answer.method !== invoice.method) {
      // A renewal link paid with QPay (or a QPay page paid by card): the receipt names the method.
      await db
        .updateTable('payment_invoices')
        .set({ method: answer.method })
        .where('invoice_id', '=', invoiceId)
        .execute();
    }
    if (answer.card) {
      const { card } = answer;
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
    if (!(await closeQpayFirst(deps, invoiceId, log))) return 'created';
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
    if (!(await closeQpayFirst(deps, invoiceId, log))) return 'created';
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
 * Before an invoice with a QPay invoice closes unpaid, the QPay invoice is cancelled, so no
 * payment can reach it afterwards; when QPay refuses (it may have just been paid), ours stays
 * open and the next check finds out.
 */
async function closeQpayFirst(deps: SettlementDeps, invoiceId: string, log: StepLog): Promise<boolean> {
  const cancelled = await cancelQpayInvoice(deps, invoiceId);
  if (cancelled === null) return true;
  if (cancelled instanceof GatewayError) {
    await log({
      type: 'warning',
      message: `QPay invoice not cancelled (${cancelled.message}); left open`,
      request: cancelled.request,
      response: cancelled.response,
    });
    return false;
  }
  await log({ type: 'info', message: 'QPay invoice cancelled', request: cancelled.request });
  return true;
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

/**
 * Open invoices a provider knows of (a card session or a QPay invoice): the ones a check can
 * settle. The rest were never shown to anyone (a renewal before its link went out).
 */
export function openProviderInvoices(db: SettlementDeps['db']) {
  return db
    .selectFrom('payment_invoices as i')
    .select('i.invoice_id')
    .where('i.status', '=', 'created')
    .where((eb) =>
      eb.or([
        eb('i.provider_token', 'is not', null),
        eb.exists(
          eb
            .selectFrom('qpay_invoices as q')
            .select('q.invoice_id')
            .whereRef('q.invoice_id', '=', 'i.invoice_id'),
        ),
      ]),
    );
}

/** The periodic check of product.md §10: settles invoices whose shopper never came back. */
export async function checkPendingInvoices(deps: SettlementDeps, limit = 100): Promise<number> {
  const pending = await openProviderInvoices(deps.db).orderBy('i.created_at').limit(limit).execute();
  for (const { invoice_id } of pending) {
    try {
      await settleInvoice(deps, invoice_id, 'check');
    } catch (error) {
      deps.reportError(error, `periodic check of invoice ${invoice_id} failed`);
    }
  }
  return pending.length;
}
