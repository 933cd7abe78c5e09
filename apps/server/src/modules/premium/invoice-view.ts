import type { PaymentStatus, PaymentStatusAnswer } from '@tunes/shared/billing';
import type { Invoice } from '@tunes/shared/premium';
import type { InvoiceStatus } from '@tunes/shared/premium-rules';
import type { Deps } from '../../deps.js';
import { notFound } from '../../lib/errors.js';
import { LIMITS } from '../../lib/limits.js';
import type { PaymentStep } from '../providers/payment-log.js';
import { openAttempts } from './open-attempts.js';
import { type SettlementDeps, settleInvoice } from './settlement.js';
import './tables.js';

/**
 * One of the user's invoices, or 404: another account's answers exactly as one that does not
 * exist, so nobody learns which invoice numbers are real (security.md).
 */
export async function ownInvoice(deps: Pick<Deps, 'db'>, userId: string, invoiceId: string) {
  const invoice = await deps.db
    .selectFrom('payment_invoices')
    .select(['user_id', 'status', 'method', 'kind'])
    .where('invoice_id', '=', invoiceId)
    .executeTakeFirst();
  if (!invoice || invoice.user_id !== userId) throw notFound('There is no such invoice.');
  return invoice;
}

/**
 * One of the user's invoices as the site polls it after checkout. An open invoice is confirmed
 * with the provider first, so a shopper who is back before the callback sees the outcome.
 */
export async function viewInvoice(deps: SettlementDeps, userId: string, invoiceId: string): Promise<Invoice> {
  await ownInvoice(deps, userId, invoiceId);
  await settleInvoice(deps, invoiceId, 'check');
  return deps.db
    .selectFrom('payment_invoices as i')
    .innerJoin('packages as p', 'p.id', 'i.package_id')
    .select((eb) => [
      'i.invoice_id as invoiceId',
      'i.status',
      'p.merchant_code as MerchantCode',
      'i.amount',
      'i.currency',
      // Surplus captures (capture-once.ts) are given back: the page says so.
      eb.fn
        .coalesce(
          eb
            .selectFrom('payment_ledger as l')
            .select((l) => l.fn.sum<string>('l.amount').as('surplus'))
            .whereRef('l.invoice_id', '=', 'i.invoice_id')
            .where('l.entry', '=', 'capture')
            .where('l.outcome', '=', 'surplus'),
          eb.lit(0),
        )
        .as('refunded'),
    ])
    .where('i.invoice_id', '=', invoiceId)
    .executeTakeFirstOrThrow()
    .then((invoice) => ({ ...invoice, refunded: Number(invoice.refunded) }));
}

/**
 * Confirms an open invoice with its providers at most once per 2 s for each kind of asker (QPay's
 * unsigned callbacks; the shopper's page polling): the rest answer the status as it stands. A
 * burst of callbacks is therefore one `payment/check`, never one each. Unknown invoices, and closed
 * ones with no page left open at a provider, ask nothing of anyone.
 */
export async function checkSoon(
  deps: SettlementDeps & Pick<Deps, 'throttle'>,
  invoiceId: string,
  step: PaymentStep,
  /** The status the caller read a moment ago (it is read here otherwise). */
  known?: { status: InvoiceStatus },
): Promise<InvoiceStatus | null> {
  const invoice =
    known ??
    (await deps.db
      .selectFrom('payment_invoices')
      .select('status')
      .where('invoice_id', '=', invoiceId)
      .executeTakeFirst());
  if (!invoice) return null;
  if (invoice.status !== 'created') {
    // A closed invoice is asked about again only while a page of it is still open at a provider
    // (a payment there is then taken and given back, capture-once.ts).
    const open = await openAttempts(deps.db, invoiceId);
    if (!open?.card && !open?.qpay) return invoice.status;
  }
  // Callbacks and polls are counted apart, so a poll never swallows the callback that follows it.
  const taken = await deps.throttle.take(
    `payment-check:${step}:${invoiceId}`,
    LIMITS.paymentChecksPerInvoice,
  );
  if (!taken.allowed) return invoice.status;
  return settleInvoice(deps, invoiceId, step);
}

/** What the waiting shopper is told: still pending, paid, failed (declined, cancelled) or expired. */
export function shopperStatus(status: InvoiceStatus): PaymentStatus {
  switch (status) {
    case 'created':
      return 'pending';
    case 'paid':
      return 'paid';
    case 'expired':
      return 'expired';
    default:
      return 'failed';
  }
}

/**
 * `GET /api/payments/{invoiceId}`: the owner's view of a payment in progress. A pending invoice
 * that QPay says was paid in part (PARTIAL, qpay-payments.ts) says how much: it stays open.
 */
export async function paymentStatus(
  deps: SettlementDeps & Pick<Deps, 'throttle'>,
  userId: string,
  invoiceId: string,
): Promise<PaymentStatusAnswer> {
  const own = await ownInvoice(deps, userId, invoiceId);
  const status = shopperStatus((await checkSoon(deps, invoiceId, 'check', own)) ?? 'created');
  if (status !== 'pending') return { status };
  const part = await deps.db
    .selectFrom('qpay_invoices as q')
    .innerJoin('payment_invoices as i', 'i.invoice_id', 'q.invoice_id')
    .select(['q.partly_paid', 'i.currency'])
    .where('q.invoice_id', '=', invoiceId)
    .where('q.partly_paid', '>', 0)
    .executeTakeFirst();
  return part ? { status, partlyPaid: { amount: part.partly_paid, currency: part.currency } } : { status };
}

/**
 * QPay's callback: unsigned, so it is only a reason to ask QPay (server to server, at most once
 * per 2 s per invoice); it never settles anything on its own say. Only open QPay invoices are
 * checked; anything else is answered the same way and costs one read.
 */
export async function receiveQpayCallback(
  deps: SettlementDeps & Pick<Deps, 'throttle'>,
  invoiceId: string,
): Promise<void> {
  const invoice = await deps.db
    .selectFrom('qpay_invoices as q')
    .innerJoin('payment_invoices as i', 'i.invoice_id', 'q.invoice_id')
    .select('i.status')
    .where('q.invoice_id', '=', invoiceId)
    .executeTakeFirst();
  if (invoice) await checkSoon(deps, invoiceId, 'callback', invoice);
}
