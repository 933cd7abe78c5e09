import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.js';
import type { LedgerMethod } from './tables.js';
import './tables.js';

/**
 * The payment ledger (product.md §12 "Money"): every capture, refund and void at a provider is
 * one row, written in the transaction that changes its invoice, and never updated. A row is
 * keyed by invoice, entry, method and the provider's reference, so the same report twice is one
 * row. An invoice's money is its ledger's: captures applied to it less their refunds.
 */

type Executor = Kysely<Database>;

/** A refund given back at a provider for one capture (`refundOf`, the capture's ledger id). */
export interface RefundEntry {
  invoiceId: string;
  method: 'card' | 'qpay';
  /** Ours for the refund: `surplus:<capture id>` for an automatic one, `operator:<uuid>` for the console's. */
  reference: string;
  refundOf: string;
  amount: number;
  currency: string;
  reason: string;
  now: Date;
}

/** Writes a refund once; false when a refund of that reference was already written. */
export async function recordRefund(db: Executor, refund: RefundEntry): Promise<boolean> {
  const row = await db
    .insertInto('payment_ledger')
    .values({
      invoice_id: refund.invoiceId,
      entry: 'refund',
      method: refund.method,
      reference: refund.reference,
      amount: refund.amount,
      currency: refund.currency,
      reason: refund.reason,
      refund_of: refund.refundOf,
      created_at: refund.now,
    })
    .onConflict((oc) => oc.columns(['invoice_id', 'entry', 'method', 'reference']).doNothing())
    .returning('id')
    .executeTakeFirst();
  return row !== undefined;
}

/** A pending attempt closed at its provider (the card page voided, a QPay invoice cancelled). */
export async function recordVoid(
  db: Executor,
  entry: { invoiceId: string; method: 'card' | 'qpay'; reference: string; currency: string; now: Date },
): Promise<void> {
  await db
    .insertInto('payment_ledger')
    .values({
      invoice_id: entry.invoiceId,
      entry: 'void',
      method: entry.method,
      reference: entry.reference,
      amount: 0,
      currency: entry.currency,
      created_at: entry.now,
    })
    .onConflict((oc) => oc.columns(['invoice_id', 'entry', 'method', 'reference']).doNothing())
    .execute();
}

/** Access given without money (a voucher, an operator's extension): a row of its own kind. */
export async function recordGrant(
  db: Executor,
  grant: {
    subscriptionId: string;
    method: Extract<LedgerMethod, 'voucher' | 'extension'>;
    reference: string;
    reason: string;
    now: Date;
  },
): Promise<void> {
  await db
    .insertInto('payment_ledger')
    .values({
      subscription_id: grant.subscriptionId,
      entry: 'capture',
      method: grant.method,
      reference: grant.reference,
      amount: 0,
      currency: 'MNT',
      outcome: 'applied',
      reason: grant.reason,
      created_at: grant.now,
    })
    .execute();
}

/** An invoice's captures, each with what has been refunded of it. */
export function capturesOf(db: Executor, invoiceId: string) {
  return db
    .selectFrom('payment_ledger as c')
    .select((eb) => [
      'c.id',
      'c.method',
      'c.reference',
      'c.amount',
      'c.currency',
      'c.outcome',
      'c.reason',
      'c.created_at',
      eb.fn
        .coalesce(
          eb
            .selectFrom('payment_ledger as r')
            .select((r) => r.fn.sum<number>('r.amount').as('refunded'))
            .whereRef('r.refund_of', '=', 'c.id')
            .where('r.entry', '=', 'refund'),
          eb.lit(0),
        )
        .as('refunded'),
    ])
    .where('c.invoice_id', '=', invoiceId)
    .where('c.entry', '=', 'capture')
    .orderBy('c.id')
    .execute()
    .then((rows) => rows.map((row) => ({ ...row, refunded: Number(row.refunded) })));
}

/**
 * After a refund of an applied capture: the invoice is `refunded` when nothing of what paid it
 * is left, `partly_refunded` when some is. Run in the refund's transaction; answers the status.
 */
export async function markRefunded(
  db: Executor,
  invoiceId: string,
): Promise<'refunded' | 'partly_refunded' | null> {
  const captures = (await capturesOf(db, invoiceId)).filter((capture) => capture.outcome === 'applied');
  const paid = captures.reduce((sum, capture) => sum + capture.amount, 0);
  const refunded = captures.reduce((sum, capture) => sum + capture.refunded, 0);
  if (paid === 0 || refunded === 0) return null;
  const status = refunded >= paid ? 'refunded' : 'partly_refunded';
  await db
    .updateTable('payment_invoices')
    .set({ status })
    .where('invoice_id', '=', invoiceId)
    .where('status', 'in', ['paid', 'partly_refunded'])
    .execute();
  return status;
}
