import type { BooksMismatch, BooksUnchecked } from '@tunes/shared/books-codes';
import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.js';
import type { Deps } from '../../deps.js';
import type { GatewayTransactions } from '../providers/card-gateway.js';
import { GatewayError } from '../providers/exchange.js';
import type { QpayPayments } from '../providers/qpay-gateway.js';
import '../premium/tables.js';

export type ProviderDeps = Pick<Deps, 'db' | 'clock' | 'paymentGateway' | 'qpay'>;

/** One capture as one side tells it: what it took, what of it was given back, and when. */
export interface Movement {
  reference: string;
  amount: number;
  currency: string;
  /** When it was taken; null when the side does not say (then it counts as old). */
  at: Date | null;
  refunded: number;
  /** The latest refund of it; null when none, or when the side does not say. */
  lastRefundAt: Date | null;
}

type Method = 'card' | 'qpay';
const PROVIDER: Record<Method, string> = { card: 'the card gateway', qpay: 'QPay' };

const money = (amount: number, currency: string) => `${amount} ${currency}`;

/** The captures the card gateway reports: the page's payment (`session`) and each paid charge. */
export function gatewayCaptures(transactions: GatewayTransactions): Movement[] {
  const captures: Movement[] = [];
  const { payment } = transactions;
  if (payment?.status === 'paid') {
    captures.push({
      reference: 'session',
      amount: payment.amount,
      currency: payment.currency,
      at: new Date(payment.settled_at ?? payment.created_at),
      refunded: 0,
      lastRefundAt: null,
    });
  }
  for (const charge of transactions.charges) {
    if (charge.status !== 'paid') continue;
    captures.push({
      reference: `charge:${charge.attempt}`,
      amount: charge.amount,
      currency: charge.currency,
      at: new Date(charge.created_at),
      refunded: 0,
      lastRefundAt: null,
    });
  }
  for (const refund of transactions.refunds) {
    const capture = captures.find((candidate) => candidate.reference === refund.reference);
    if (!capture) continue;
    capture.refunded += refund.amount;
    const at = new Date(refund.created_at);
    if (!capture.lastRefundAt || at > capture.lastRefundAt) capture.lastRefundAt = at;
  }
  return captures;
}

/**
 * The captures QPay reports for one QPay invoice: each payment that took money (PAID, PARTIAL),
 * or took it and gave it back — `REFUND` in QPay's description (its refunds are whole and made by
 * the call), `REFUNDED` in older answers; both are compared as refunded in full.
 */
export function qpayCaptures(payments: QpayPayments): Movement[] {
  const captures: Movement[] = [];
  for (const row of payments.rows) {
    if (!['PAID', 'PARTIAL', 'REFUND', 'REFUNDED'].includes(row.status)) continue;
    captures.push({
      reference: row.paymentId,
      amount: row.amount,
      currency: row.currency,
      at: row.paidAt ?? null,
      refunded: row.status === 'REFUND' || row.status === 'REFUNDED' ? row.amount : 0,
      lastRefundAt: null,
    });
  }
  return captures;
}

/**
 * One provider's captures of one invoice against the ledger's. A capture is matched by the
 * provider's reference; an `opening` row (written when the ledger began) by its amount. What is
 * younger than `graceMs` on either side may be on its way to the other and is not reported yet.
 */
export function compareCaptures(input: {
  invoiceId: string;
  method: Method;
  provider: Movement[];
  ledger: Movement[];
  now: Date;
  graceMs: number;
}): BooksMismatch[] {
  const { invoiceId, method, now, graceMs } = input;
  const young = (at: Date | null) => at !== null && now.getTime() - at.getTime() < graceMs;
  const name = PROVIDER[method];
  const atProvider = new Map(input.provider.map((capture) => [capture.reference, capture]));
  const pairs: [Movement, Movement][] = [];
  const unknown: Movement[] = [];
  for (const ours of input.ledger) {
    const theirs = atProvider.get(ours.reference);
    if (theirs) {
      pairs.push([ours, theirs]);
      atProvider.delete(ours.reference);
    } else unknown.push(ours);
  }
  for (const ours of unknown.filter((capture) => capture.reference === 'opening')) {
    const theirs = [...atProvider.values()].find(
      (capture) => capture.amount === ours.amount && capture.currency === ours.currency,
    );
    if (!theirs) continue;
    pairs.push([ours, theirs]);
    atProvider.delete(theirs.reference);
    unknown.splice(unknown.indexOf(ours), 1);
  }

  const found: BooksMismatch[] = [];
  for (const theirs of atProvider.values()) {
    if (young(theirs.at)) continue;
    found.push({
      kind: 'capture_missing',
      invoiceId,
      detail: `${name} took ${money(theirs.amount, theirs.currency)} (${theirs.reference}); the ledger has no such capture`,
    });
  }
  for (const ours of unknown) {
    if (young(ours.at)) continue;
    found.push({
      kind: 'capture_unknown',
      invoiceId,
      detail: `the ledger's ${method} capture ${ours.reference} of ${money(ours.amount, ours.currency)} is not at ${name}`,
    });
  }
  for (const [ours, theirs] of pairs) {
    if (ours.amount !== theirs.amount || ours.currency !== theirs.currency) {
      found.push({
        kind: 'capture_amount_differs',
        invoiceId,
        detail: `${method} capture ${theirs.reference}: ${name} took ${money(theirs.amount, theirs.currency)}, the ledger says ${money(ours.amount, ours.currency)}`,
      });
    }
    const settling = young(ours.at) || young(ours.lastRefundAt) || young(theirs.lastRefundAt);
    if (ours.refunded !== theirs.refunded && !settling) {
      found.push({
        kind: 'refund_differs',
        invoiceId,
        detail: `${method} capture ${theirs.reference}: ${name} refunded ${money(theirs.refunded, theirs.currency)}, the ledger ${money(ours.refunded, ours.currency)}`,
      });
    }
  }
  return found;
}

/** An invoice a provider is asked about, with what the ledger holds of it. */
export interface AskedInvoice {
  invoice_id: string;
  provider_token: string | null;
  charge_attempts: number;
  qpay_invoice_id: string | null;
}

/** The ledger's card and QPay captures of some invoices, each with its refunds summed. */
export async function ledgerMovements(db: Kysely<Database>, invoiceIds: string[]) {
  const byInvoice = new Map<string, Record<Method, Movement[]>>();
  if (invoiceIds.length === 0) return byInvoice;
  const rows = await db
    .selectFrom('payment_ledger')
    .select([
      'id',
      'invoice_id',
      'entry',
      'method',
      'reference',
      'amount',
      'currency',
      'refund_of',
      'created_at',
    ])
    .where('invoice_id', 'in', invoiceIds)
    .where('method', 'in', ['card', 'qpay'])
    .where('entry', 'in', ['capture', 'refund'])
    .orderBy('id')
    .execute();
  const captures = new Map<string, Movement>();
  for (const row of rows) {
    if (row.entry !== 'capture' || !row.invoice_id) continue;
    const capture: Movement = {
      reference: row.reference,
      amount: row.amount,
      currency: row.currency,
      at: row.created_at,
      refunded: 0,
      lastRefundAt: null,
    };
    captures.set(String(row.id), capture);
    const methods = byInvoice.get(row.invoice_id) ?? { card: [], qpay: [] };
    methods[row.method as Method].push(capture);
    byInvoice.set(row.invoice_id, methods);
  }
  for (const row of rows) {
    const capture = row.entry === 'refund' && row.refund_of ? captures.get(String(row.refund_of)) : undefined;
    if (!capture) continue;
    capture.refunded += row.amount;
    if (!capture.lastRefundAt || row.created_at > capture.lastRefundAt) capture.lastRefundAt = row.created_at;
  }
  return byInvoice;
}

/**
 * Asks each provider of one invoice what it did, and compares that with the ledger. A provider
 * that cannot be asked leaves the invoice unchecked (not a mismatch).
 */
export async function checkInvoiceAtProviders(
  deps: ProviderDeps,
  invoice: AskedInvoice,
  ledger: Record<Method, Movement[]>,
  graceMs: number,
): Promise<{ mismatches: BooksMismatch[]; unchecked: BooksUnchecked[] }> {
  const now = deps.clock.now();
  const invoiceId = invoice.invoice_id;
  const mismatches: BooksMismatch[] = [];
  const unchecked: BooksUnchecked[] = [];
  const ask = async <T>(method: Method, call: () => Promise<T>): Promise<T | null> => {
    try {
      return await call();
    } catch (error) {
      if (!(error instanceof GatewayError)) throw error;
      unchecked.push({ invoiceId, detail: `${PROVIDER[method]} could not be asked: ${error.message}` });
      return null;
    }
  };
  const compare = (method: Method, provider: Movement[]) =>
    mismatches.push(
      ...compareCaptures({ invoiceId, method, provider, ledger: ledger[method], now, graceMs }),
    );

  if (invoice.provider_token || invoice.charge_attempts > 0 || ledger.card.length > 0) {
    const answer = await ask('card', () => deps.paymentGateway.transactions(invoiceId));
    if (answer) compare('card', gatewayCaptures(answer.result));
  }
  if (invoice.qpay_invoice_id) {
    const qpayInvoiceId = invoice.qpay_invoice_id;
    const answer = await ask('qpay', () => deps.qpay.checkPayment(qpayInvoiceId));
    if (answer) compare('qpay', qpayCaptures(answer.result));
  } else if (ledger.qpay.length > 0) {
    // Nothing to ask QPay with: every QPay capture of the ledger is unknown there.
    compare('qpay', []);
  }
  return { mismatches, unchecked };
}
