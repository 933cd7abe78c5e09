import { randomUUID } from 'node:crypto';
import type { RefundAnswer, RefundRequest } from '@tunes/shared/console';
import { type Kysely, sql } from 'kysely';
import type { Database } from '../../db/schema.js';
import type { Deps } from '../../deps.js';
import { AppError, conflict, notFound } from '../../lib/errors.js';
import { voidInvoiceReceipts } from '../ebarimt/receipt-once.js';
import { findInvoiceParty } from '../premium/invoice-party.js';
import { capturesOf, markRefunded, recordRefund } from '../premium/ledger.js';
import { type Exchange, GatewayError } from '../providers/exchange.js';
import { writePaymentLog } from '../providers/payment-log.js';
import { audit } from './audit.js';
import './tables.js';

type RefundDeps = Pick<Deps, 'db' | 'clock' | 'paymentGateway' | 'qpay' | 'reportError'>;
type Executor = Kysely<Database>;

/** How long a refund's claim holds before a later ask may resume it (a crash, a provider silent). */
const CLAIM_MS = 2 * 60_000;

type Invoice = NonNullable<Awaited<ReturnType<typeof invoiceOf>>>;
type Capture = Awaited<ReturnType<typeof capturesOf>>[number];
interface Claim {
  refund_id: string;
  capture_id: string | null;
  amount: number;
}

function invoiceOf(db: Executor, invoiceId: string) {
  return db
    .selectFrom('payment_invoices')
    .select([
      'invoice_id',
      'status',
      'amount',
      'currency',
      'method',
      'subscription_id',
      'user_id',
      'charge_attempts',
      'kind',
      'settled_at',
    ])
    .where('invoice_id', '=', invoiceId)
    .executeTakeFirst();
}

function assertRefundable(invoice: Invoice) {
  if (invoice.status === 'refunded') throw conflict('This payment was already refunded.', 'already_refunded');
  if (invoice.status !== 'paid' && invoice.status !== 'partly_refunded') {
    throw conflict('Only a paid payment can be refunded.', 'not_paid');
  }
}

/** The capture a refund gives back (the first applied one with money left) and how much. */
async function planRefund(db: Executor, invoice: Invoice, asked: number | undefined) {
  assertRefundable(invoice);
  const captures = (await capturesOf(db, invoice.invoice_id)).filter(
    (capture) => capture.outcome === 'applied' && (capture.method === 'card' || capture.method === 'qpay'),
  );
  const capture = captures.find((each) => each.amount > each.refunded);
  if (!capture) throw conflict('Nothing is left to refund of this payment.', 'already_refunded');
  const left = capture.amount - capture.refunded;
  const amount = asked ?? left;
  if (amount > left) {
    throw conflict(`At most ${left} ${capture.currency} is left to refund.`, 'refund_too_large');
  }
  if (capture.method === 'qpay' && amount !== capture.amount) {
    throw conflict(
      `QPay refunds a whole payment only: refund all ${capture.amount} ${capture.currency} or nothing.`,
      'qpay_whole_only',
    );
  }
  return { capture, amount };
}

/**
 * Claims the invoice's one refund in flight: of refunds asked at once one inserts the `pending`
 * row (a partial unique index) and the others get 409. A claim older than CLAIM_MS (its process
 * died, or the provider never answered) is taken over, by one caller, and resumed as it was.
 */
async function claimRefund(deps: RefundDeps, operatorId: string, invoice: Invoice, reason: string) {
  const now = deps.clock.now();
  const claimed = await deps.db
    .insertInto('payment_refunds')
    .values({
      refund_id: `operator:${randomUUID()}`,
      invoice_id: invoice.invoice_id,
      amount: 0,
      currency: invoice.currency,
      reason,
      status: 'pending',
      operator_id: operatorId,
      created_at: now,
    })
    .onConflict((oc) => oc.column('invoice_id').where('status', '=', 'pending').doNothing())
    .returning(['refund_id', 'capture_id', 'amount'])
    .executeTakeFirst();
  if (claimed) return { claim: claimed, resumed: false };
  const stale = await deps.db
    .updateTable('payment_refunds')
    .set({ created_at: now })
    .where('invoice_id', '=', invoice.invoice_id)
    .where('status', '=', 'pending')
    .where('created_at', '<=', new Date(now.getTime() - CLAIM_MS))
    .returning(['refund_id', 'capture_id', 'amount'])
    .executeTakeFirst();
  if (!stale) throw conflict('A refund of this payment is under way.', 'refund_in_progress');
  return { claim: stale, resumed: true };
}

const releaseClaim = (db: Executor, refundId: string) =>
  db
    .deleteFrom('payment_refunds')
    .where('refund_id', '=', refundId)
    .where('status', '=', 'pending')
    .execute();

/** The capture's name at its provider; captures from before the ledger are `opening`. */
async function providerReference(deps: RefundDeps, invoice: Invoice, capture: Capture): Promise<string> {
  if (capture.reference !== 'opening') return capture.reference;
  if (capture.method === 'card') {
    return invoice.charge_attempts > 0 ? `charge:${invoice.charge_attempts}` : 'session';
  }
  const qpayInvoice = await deps.db
    .selectFrom('qpay_invoices')
    .select('qpay_invoice_id')
    .where('invoice_id', '=', invoice.invoice_id)
    .executeTakeFirst();
  const payments = qpayInvoice ? await deps.qpay.checkPayment(qpayInvoice.qpay_invoice_id) : undefined;
  const paid = payments?.result.rows.find((row) => row.status === 'PAID');
  if (!paid) throw conflict('QPay knows no paid payment of this invoice.', 'not_refundable');
  return paid.paymentId;
}

/** Asks the capture's provider to give `amount` back; our refund id makes a second ask the first. */
async function giveBack(
  deps: RefundDeps,
  invoice: Invoice,
  capture: Capture,
  claim: Claim,
): Promise<Exchange<unknown>> {
  const reference = await providerReference(deps, invoice, capture);
  if (capture.method === 'qpay') return deps.qpay.refundPayment(reference);
  return deps.paymentGateway.refund({
    invoiceId: invoice.invoice_id,
    amount: claim.amount,
    currency: capture.currency,
    refundId: claim.refund_id,
    reference,
  });
}

/**
 * An operator's refund of all or part of a paid invoice (docs/console-api.md), exactly once: the
 * invoice's refund is claimed first (claimRefund), then its capture's provider is asked — the
 * card gateway for `amount`, QPay for the whole payment — and once it confirms, one transaction
 * writes the ledger's refund, the invoice's status (`partly_refunded` or `refunded`), the audit
 * entry and the voiding of the e-barimt. Only a full refund ends the period it paid for; a
 * partial one leaves access as it is.
 *
 * The e-barimt is voided on a partial refund too, and no receipt for what remains is issued in
 * its place (the answer's `receipt.reissued` is false): a receipt is one per invoice and kind,
 * for the invoice's whole amount, with a bill id made from them (ebarimt/receipt-once.ts), so a
 * net receipt needs that table keyed per issue first.
 */
export async function refundPayment(
  deps: RefundDeps,
  operatorId: string,
  invoiceId: string,
  request: RefundRequest,
): Promise<RefundAnswer> {
  const found = await invoiceOf(deps.db, invoiceId);
  if (!found) throw notFound('No such payment.');
  assertRefundable(found);
  const { claim, resumed } = await claimRefund(deps, operatorId, found, request.reason);

  // Read after the claim: every refund before it is in the ledger by now.
  const invoice = (await invoiceOf(deps.db, invoiceId)) ?? found;
  let capture: Capture;
  if (resumed && claim.capture_id) {
    const resumedCapture = (await capturesOf(deps.db, invoiceId)).find(
      (each) => each.id === claim.capture_id,
    );
    if (!resumedCapture) throw new Error(`refund ${claim.refund_id} names no capture`);
    capture = resumedCapture;
  } else {
    try {
      const plan = await planRefund(deps.db, invoice, request.amount);
      capture = plan.capture;
      claim.amount = plan.amount;
      claim.capture_id = plan.capture.id;
    } catch (error) {
      await releaseClaim(deps.db, claim.refund_id);
      throw error;
    }
    await deps.db
      .updateTable('payment_refunds')
      .set({
        capture_id: capture.id,
        amount: claim.amount,
        currency: capture.currency,
        reason: request.reason,
      })
      .where('refund_id', '=', claim.refund_id)
      .execute();
  }

  const party = await findInvoiceParty(deps, invoiceId);
  const log = (entry: { type: 'info' | 'error'; message: string; request?: unknown; response?: unknown }) =>
    writePaymentLog(deps, { ...party, orderNumber: invoiceId, currentProcess: 'refund', ...entry });
  try {
    const exchange = await giveBack(deps, invoice, capture, claim);
    await log({
      type: 'info',
      message: `operator refund ${claim.refund_id} of ${claim.amount} ${capture.currency} (${capture.method})`,
      request: exchange.request,
      response: exchange.response,
    });
  } catch (error) {
    const gateway = error instanceof GatewayError ? error : null;
    // A provider that answered refused: the claim is let go. One that did not answer may have
    // refunded: the claim stays, and the next ask after CLAIM_MS repeats this very refund.
    const refused = (gateway && gateway.response !== null) || error instanceof AppError;
    if (refused) await releaseClaim(deps.db, claim.refund_id);
    await log({
      type: 'error',
      message: `operator refund ${claim.refund_id} failed: ${(error as Error).message}`,
      request: gateway?.request,
      response: gateway?.response,
    });
    if (error instanceof AppError) throw error;
    if (!gateway) throw error;
    throw new AppError(
      502,
      'gateway_error',
      refused
        ? `The provider refused the refund: ${gateway.message}`
        : `The provider did not answer; ask again in a few minutes: ${gateway.message}`,
    );
  }
  return settleRefund(deps, { operatorId, invoice, capture, claim, reason: request.reason });
}

/** Writes a refund the provider confirmed: ledger, status, receipts, access and audit in one transaction. */
async function settleRefund(
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
    if (!done) throw conflict('This refund was already recorded.', 'already_refunded');
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
 * ended the subscription.
 */
async function endRefundedPeriod(
  trx: Executor,
  subscriptionId: string,
  invoice: { invoice_id: string; settled_at: Date | null },
  now: Date,
): Promise<boolean> {
  const later = await trx
    .selectFrom('payment_invoices')
    .select('invoice_id')
    .where('subscription_id', '=', subscriptionId)
    .where('invoice_id', '<>', invoice.invoice_id)
    .where('kind', '=', 'renewal')
    .where('status', 'in', ['paid', 'partly_refunded'])
    .where('settled_at', '>', invoice.settled_at ?? new Date(0))
    .executeTakeFirst();
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
