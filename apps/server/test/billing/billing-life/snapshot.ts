import { qpaySenderInvoiceNo } from '../../../src/modules/premium/qpay-payments.js';
import type { World } from './world.js';

/**
 * Everything the invariants read, scoped to one run's listeners and their invoices: our side
 * (invoices, the ledger, periods, cards, receipts) and the providers' (the sandboxes' tables).
 */
export type Books = Awaited<ReturnType<typeof readBooks>>;

export async function readBooks(world: World) {
  const { db } = world.t;
  const userIds = world.users.map((user) => user.id);
  const users = await db
    .selectFrom('users')
    .select(['id', 'deleted_at'])
    .where('id', 'in', userIds)
    .execute();
  const invoices = await db
    .selectFrom('payment_invoices')
    .select([
      'invoice_id',
      'user_id',
      'status',
      'kind',
      'amount',
      'package_id',
      'subscription_id',
      'period_start',
      'period_end',
      'created_at',
      'settled_at',
    ])
    .where('user_id', 'in', userIds)
    .orderBy('created_at')
    .orderBy('invoice_id')
    .execute();
  const subscriptions = await db
    .selectFrom('subscriptions')
    .select([
      'id',
      'owner_id',
      'package_id',
      'start_date',
      'end_date',
      'invoice_id',
      'is_auto_renew',
      'next_billing_at',
    ])
    .where('owner_id', 'in', userIds)
    .execute();
  const savedCards = await db
    .selectFrom('saved_cards')
    .select('user_id')
    .where('user_id', 'in', userIds)
    .execute();
  // The pauses of the run's plans and how each listener chose to renew (issue 37).
  const pauses = await db
    .selectFrom('subscription_pauses as z')
    .innerJoin('subscriptions as s', 's.id', 'z.subscription_id')
    .select(['z.subscription_id', 'z.starts_at', 'z.resumes_at', 'z.months', 'z.status', 'z.ended_at'])
    .where('s.owner_id', 'in', userIds)
    .execute();
  const renewalMethods = await db
    .selectFrom('renewal_methods')
    .select(['user_id', 'method'])
    .where('user_id', 'in', userIds)
    .execute();
  const packages = await db.selectFrom('packages').select(['id', 'duration_months', 'cost']).execute();
  const ids = invoices.map((invoice) => invoice.invoice_id);
  const none = {
    gatewayPayments: [],
    charges: [],
    gatewayRefunds: [],
    qpayPayments: [],
    ledger: [],
    receipts: [],
  };
  const books = {
    now: world.t.clock.now(),
    users,
    invoices,
    subscriptions,
    savedCards,
    pauses,
    renewalMethods,
    durations: new Map(packages.map((row) => [row.id, row.duration_months])),
    prices: new Map(packages.map((row) => [row.id, row.cost])),
  };
  if (ids.length === 0) return { ...books, ...none };

  const gatewayPayments = await db
    .selectFrom('sandbox_gateway_payments')
    .select(['invoice_id', 'amount', 'status', 'created_at', 'settled_at'])
    .where('invoice_id', 'in', ids)
    .execute();
  const charges = await db
    .selectFrom('sandbox_gateway_charges')
    .select(['invoice_id', 'attempt', 'amount', 'status', 'created_at'])
    .where('invoice_id', 'in', ids)
    .execute();
  const gatewayRefunds = await db
    .selectFrom('sandbox_gateway_refunds')
    .select(['invoice_id', 'reference', 'amount', 'created_at'])
    .where('invoice_id', 'in', ids)
    .execute();
  // A QPay invoice is ours by the id we stored, or by the number we gave it (its
  // `sender_invoice_no`), so one opened at QPay that we failed to store counts too.
  const stored = await db
    .selectFrom('qpay_invoices')
    .select(['invoice_id', 'qpay_invoice_id'])
    .where('invoice_id', 'in', ids)
    .execute();
  const ours = new Map<string, string>([
    ...ids.map((id) => [id, id] as const),
    ...ids.map((id) => [qpaySenderInvoiceNo(id), id] as const),
  ]);
  const byQpayId = new Map(stored.map((row) => [row.qpay_invoice_id, row.invoice_id]));
  const qpayRows = await db
    .selectFrom('sandbox_qpay_payments as p')
    .innerJoin('sandbox_qpay_invoices as q', 'q.id', 'p.invoice_id')
    .select([
      'q.id as qpay_invoice_id',
      'q.sender_invoice_no',
      'p.payment_id',
      'p.status',
      'p.amount',
      'p.created_at',
    ])
    .where((eb) =>
      eb.or([
        eb('q.sender_invoice_no', 'in', [...ours.keys()]),
        ...(stored.length > 0 ? [eb('q.id', 'in', [...byQpayId.keys()])] : []),
      ]),
    )
    .execute();
  const qpayPayments = qpayRows.map((row) => ({
    ...row,
    invoice_id: byQpayId.get(row.qpay_invoice_id) ?? ours.get(row.sender_invoice_no) ?? row.sender_invoice_no,
  }));
  const ledger = await db
    .selectFrom('payment_ledger')
    .select([
      'id',
      'invoice_id',
      'entry',
      'method',
      'reference',
      'amount',
      'outcome',
      'refund_of',
      'created_at',
    ])
    .where('invoice_id', 'in', ids)
    .orderBy('id')
    .execute();
  const receipts = await db
    .selectFrom('ebarimt_receipts')
    .select(['invoice_id', 'kind', 'status'])
    .where('invoice_id', 'in', ids)
    .execute();
  return { ...books, gatewayPayments, charges, gatewayRefunds, qpayPayments, ledger, receipts };
}

/** One capture as one side tells it: what was taken and what of it was given back. */
export interface Movement {
  method: 'card' | 'qpay';
  reference: string;
  amount: number;
  refunded: number;
  at: Date;
}

export interface LedgerCapture extends Movement {
  outcome: 'applied' | 'surplus' | null;
}

const QPAY_TOOK = new Set(['PAID', 'PARTIAL', 'REFUND', 'REFUNDED']);
const QPAY_GAVE_BACK = new Set(['REFUND', 'REFUNDED']);

/** The providers' captures of each invoice: the card page's payment, each paid charge, each QPay payment. */
export function providerCaptures(books: Books): Map<string, Movement[]> {
  const byInvoice = new Map<string, Movement[]>();
  const add = (invoiceId: string, movement: Movement) =>
    byInvoice.set(invoiceId, [...(byInvoice.get(invoiceId) ?? []), movement]);
  for (const payment of books.gatewayPayments) {
    if (payment.status !== 'paid') continue;
    const at = payment.settled_at ?? payment.created_at;
    add(payment.invoice_id, {
      method: 'card',
      reference: 'session',
      amount: payment.amount,
      refunded: 0,
      at,
    });
  }
  for (const charge of books.charges) {
    if (charge.status !== 'paid') continue;
    add(charge.invoice_id, {
      method: 'card',
      reference: `charge:${charge.attempt}`,
      amount: charge.amount,
      refunded: 0,
      at: charge.created_at,
    });
  }
  for (const refund of books.gatewayRefunds) {
    const capture = byInvoice
      .get(refund.invoice_id)
      ?.find((each) => each.method === 'card' && each.reference === refund.reference);
    // A refund of nothing taken is its own capture, so the comparison shows it.
    if (capture) capture.refunded += refund.amount;
    else
      add(refund.invoice_id, {
        method: 'card',
        reference: `${refund.reference} (refund of nothing)`,
        amount: 0,
        refunded: refund.amount,
        at: refund.created_at,
      });
  }
  for (const payment of books.qpayPayments) {
    // Every status that took money: PAID, PARTIAL (part of it), and given back, REFUND (REFUNDED in older rows).
    if (!QPAY_TOOK.has(payment.status)) continue;
    add(payment.invoice_id, {
      method: 'qpay',
      reference: payment.payment_id,
      amount: payment.amount,
      refunded: QPAY_GAVE_BACK.has(payment.status) ? payment.amount : 0,
      at: payment.created_at,
    });
  }
  return byInvoice;
}

/** The ledger's card and QPay captures of each invoice, each with its refunds summed. */
export function ledgerCaptures(books: Books): Map<string, LedgerCapture[]> {
  const byId = new Map<string, LedgerCapture>();
  const byInvoice = new Map<string, LedgerCapture[]>();
  for (const row of books.ledger) {
    if (row.entry !== 'capture' || !row.invoice_id || (row.method !== 'card' && row.method !== 'qpay'))
      continue;
    const capture: LedgerCapture = {
      method: row.method,
      reference: row.reference,
      amount: row.amount,
      refunded: 0,
      at: row.created_at,
      outcome: row.outcome,
    };
    byId.set(String(row.id), capture);
    byInvoice.set(row.invoice_id, [...(byInvoice.get(row.invoice_id) ?? []), capture]);
  }
  for (const row of books.ledger) {
    if (row.entry !== 'refund') continue;
    const capture = row.refund_of === null ? undefined : byId.get(String(row.refund_of));
    if (capture) capture.refunded += row.amount;
    else if (row.invoice_id) {
      byInvoice.set(row.invoice_id, [
        ...(byInvoice.get(row.invoice_id) ?? []),
        {
          method: row.method === 'qpay' ? 'qpay' : 'card',
          reference: `${row.reference} (refund of no capture)`,
          amount: 0,
          refunded: row.amount,
          at: row.created_at,
          outcome: null,
        },
      ]);
    }
  }
  return byInvoice;
}

export const kept = (movements: Movement[]) =>
  movements.reduce((sum, movement) => sum + movement.amount - movement.refunded, 0);
