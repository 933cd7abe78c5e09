import { randomUUID } from 'node:crypto';
import { API_ERROR_CODES } from '@tunes/shared/error-codes';
import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.js';
import type { Deps } from '../../deps.js';
import { conflict } from '../../lib/errors.js';
import { capturesOf } from '../premium/ledger.js';
import './tables.js';

export type RefundDeps = Pick<Deps, 'db' | 'clock' | 'paymentGateway' | 'qpay' | 'reportError'>;
export type Executor = Kysely<Database>;

/** How long a refund's claim holds before a later ask may resume it (a crash, a provider silent). */
const CLAIM_MS = 2 * 60_000;

export type Invoice = NonNullable<Awaited<ReturnType<typeof invoiceOf>>>;
export type Capture = Awaited<ReturnType<typeof capturesOf>>[number];
export interface Claim {
  refund_id: string;
  capture_id: string | null;
  amount: number;
}

export function invoiceOf(db: Executor, invoiceId: string) {
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
      'period_start',
    ])
    .where('invoice_id', '=', invoiceId)
    .executeTakeFirst();
}

export function assertRefundable(invoice: Invoice) {
  if (invoice.status === 'refunded')
    throw conflict('This payment was already refunded.', API_ERROR_CODES.alreadyRefunded);
  if (invoice.status !== 'paid' && invoice.status !== 'partly_refunded') {
    throw conflict('Only a paid payment can be refunded.', API_ERROR_CODES.notPaid);
  }
}

/** The capture a refund gives back (the first applied one with money left) and how much. */
export async function planRefund(db: Executor, invoice: Invoice, asked: number | undefined) {
  assertRefundable(invoice);
  const captures = (await capturesOf(db, invoice.invoice_id)).filter(
    (capture) => capture.outcome === 'applied' && (capture.method === 'card' || capture.method === 'qpay'),
  );
  const capture = captures.find((each) => each.amount > each.refunded);
  if (!capture) throw conflict('Nothing is left to refund of this payment.', API_ERROR_CODES.alreadyRefunded);
  const left = capture.amount - capture.refunded;
  const amount = asked ?? left;
  if (amount > left) {
    throw conflict(`At most ${left} ${capture.currency} is left to refund.`, API_ERROR_CODES.refundTooLarge);
  }
  if (capture.method === 'qpay' && amount !== capture.amount) {
    throw conflict(
      `QPay refunds a whole payment only: refund all ${capture.amount} ${capture.currency} or nothing.`,
      API_ERROR_CODES.qpayWholeOnly,
    );
  }
  return { capture, amount };
}

/**
 * Claims the invoice's one refund in flight: of refunds asked at once one inserts the `pending`
 * row (a partial unique index) and the others get 409. A claim older than CLAIM_MS (its process
 * died, or the provider never answered) is taken over, by one caller, and resumed as it was.
 */
export async function claimRefund(deps: RefundDeps, operatorId: string, invoice: Invoice, reason: string) {
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
  if (!stale) throw conflict('A refund of this payment is under way.', API_ERROR_CODES.refundInProgress);
  return { claim: stale, resumed: true };
}

export const releaseClaim = (db: Executor, refundId: string) =>
  db
    .deleteFrom('payment_refunds')
    .where('refund_id', '=', refundId)
    .where('status', '=', 'pending')
    .execute();
