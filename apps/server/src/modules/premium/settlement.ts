import { RENEWAL_RETRY_DAYS } from '@tunes/shared/billing';
import { DAY_MS } from '@tunes/shared/constants';
import type { InvoiceStatus } from '@tunes/shared/premium-rules';
import type { Deps } from '../../deps.js';
import { payments } from '../../lib/metrics.js';
import { releaseOffer } from '../offers/redemption.js';
import {
  type PaymentLogEntry,
  type PaymentStep,
  subscriberName,
  writePaymentLog,
  writePaymentLogs,
} from '../providers/payment-log.js';
import { type CaptureDeps, closeAttempts, takeCapture } from './capture-once.js';
import { askProviders, type StepLine } from './provider-answers.js';
import { refundOpenSurplus } from './surplus-refunds.js';
import './tables.js';

/** Pending invoices older than this are given up as expired by the periodic check. */
export const INVOICE_TTL_MS = DAY_MS;
/** Days after a period's end when its renewal invoice can no longer be paid (after the last retry). */
const RENEWAL_PAYABLE_DAYS = (RENEWAL_RETRY_DAYS.at(-1) ?? 0) + 1;

export type SettlementDeps = CaptureDeps;

type StepLog = (entry: StepLine) => Promise<void>;

/**
 * Confirms an invoice with its providers server-to-server and applies the answer: each capture
 * is taken once (capture-once.ts: the first of an open invoice pays it, any other is refunded),
 * a declined or cancelled invoice is closed, an old one expires. A closed invoice whose attempt
 * is still open at a provider (a page left open) has it closed. Every return, callback and
 * periodic check goes through here. Answers the invoice's status afterwards, or null for an
 * unknown invoice.
 */
export async function settleInvoice(
  deps: SettlementDeps,
  invoiceId: string,
  step: PaymentStep,
): Promise<InvoiceStatus | null> {
  const { db } = deps;
  // The invoice, its QPay invoice and who its log lines name, in one read.
  const invoice = await db
    .selectFrom('payment_invoices as i')
    .leftJoin('qpay_invoices as q', 'q.invoice_id', 'i.invoice_id')
    .leftJoin('users as u', 'u.id', 'i.user_id')
    .leftJoin('packages as p', 'p.id', 'i.package_id')
    .select([
      'i.status',
      'i.created_at',
      'i.kind',
      'i.method',
      'i.period_start',
      'i.period_end',
      'i.provider_token',
      'i.user_id',
      'i.amount',
      'q.qpay_invoice_id',
      'u.first_name',
      'u.last_name',
      'u.username',
      'p.name_en',
    ])
    .where('i.invoice_id', '=', invoiceId)
    .executeTakeFirst();
  if (!invoice) return null;
  if (invoice.status !== 'created') {
    // A capture found on a closed invoice's page is given back: its status stays as it is.
    await closeAttempts(deps, invoiceId, step);
    return invoice.status;
  }

  const party =
    invoice.username !== null && invoice.name_en !== null
      ? {
          userId: invoice.user_id,
          subscriberName: subscriberName({
            first_name: invoice.first_name ?? '',
            last_name: invoice.last_name ?? '',
            username: invoice.username,
          }),
          packageName: invoice.name_en,
          purchasePrice: invoice.amount,
        }
      : {};
  const line = (entry: StepLine): PaymentLogEntry => ({
    ...party,
    orderNumber: invoiceId,
    currentProcess: step,
    ...entry,
  });
  const log: StepLog = (entry) => writePaymentLog(deps, line(entry));

  const answers = await askProviders(deps, invoiceId, invoice);
  if (answers.captures.length > 0) {
    // The providers' answers are written with the first capture's own line, in one statement.
    let first = answers.lines.map(line);
    let applied = false;
    for (const capture of answers.captures) {
      const taken = await takeCapture(deps, invoiceId, capture, step, undefined, first);
      first = [];
      applied ||= taken.outcome === 'applied';
    }
    return applied ? 'paid' : currentStatus(deps, invoiceId);
  }
  await writePaymentLogs(deps, answers.lines.map(line));
  if (answers.unanswered) return 'created';

  const expired = deps.clock.now().getTime() > invoiceExpiry(invoice).getTime();
  const status = answers.closed ?? (expired ? 'expired' : null);
  if (!status) return 'created';
  // Before it closes unpaid, nothing may be paid on it any more: its pages close at the providers.
  if (!(await closeAttempts(deps, invoiceId, step))) return currentStatus(deps, invoiceId);
  const closed = await db
    .updateTable('payment_invoices')
    .set({ status, settled_at: deps.clock.now() })
    .where('invoice_id', '=', invoiceId)
    .where('status', '=', 'created')
    .returning('status')
    .executeTakeFirst();
  if (closed) {
    // A purchase's offer place, reserved with the invoice, is free again (modules/offers).
    if (invoice.kind === 'purchase') await releaseOffer(db, invoiceId, deps.clock.now());
    payments.inc({ method: invoice.method, kind: invoice.kind, outcome: status });
    await log(
      status === 'expired'
        ? { type: 'warning', message: 'invoice expired unpaid' }
        : { type: 'info', message: `invoice ${status}` },
    );
  }
  return closed?.status ?? (await currentStatus(deps, invoiceId));
}

/**
 * A checkout is given up a day after it was made; a plan change at the end of its period; a renewal invoice (a payment link sent before
 * the end, or "pay now" after a failed charge) stays payable until the renewal's last retry.
 */
function invoiceExpiry(invoice: {
  created_at: Date;
  kind: string;
  period_start: Date | null;
  period_end: Date | null;
}): Date {
  // A plan change belongs to its period and ends with it.
  if (invoice.kind === 'change' && invoice.period_end) return invoice.period_end;
  if (invoice.kind === 'renewal' && invoice.period_start) {
    return new Date(invoice.period_start.getTime() + RENEWAL_PAYABLE_DAYS * DAY_MS);
  }
  return new Date(invoice.created_at.getTime() + INVOICE_TTL_MS);
}

async function currentStatus(deps: Pick<Deps, 'db'>, invoiceId: string): Promise<InvoiceStatus> {
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
export async function lapseUnpaidRenewals(deps: Pick<Deps, 'db' | 'clock'>): Promise<number> {
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

/**
 * Closed invoices with an attempt still open at a provider (a card page not voided, a QPay
 * invoice not cancelled, neither of which captured): a provider was down when the invoice
 * closed, so the check closes them now.
 */
export function invoicesWithOpenAttempts(db: SettlementDeps['db']) {
  return db
    .selectFrom('payment_invoices as i')
    .leftJoin('qpay_invoices as q', 'q.invoice_id', 'i.invoice_id')
    .select('i.invoice_id')
    .where('i.status', '<>', 'created')
    .where((eb) => {
      // As `openAttempts` judges them: the card page is done when it captured (`session`).
      const captured = (method: 'card' | 'qpay', reference?: string) => {
        let query = eb
          .selectFrom('payment_ledger as l')
          .select('l.id')
          .whereRef('l.invoice_id', '=', 'i.invoice_id')
          .where('l.entry', '=', 'capture')
          .where('l.method', '=', method);
        if (reference) query = query.where('l.reference', '=', reference);
        return eb.exists(query);
      };
      return eb.or([
        eb.and([
          eb('i.provider_token', 'is not', null),
          eb('i.card_voided_at', 'is', null),
          eb.not(captured('card', 'session')),
        ]),
        eb.and([
          eb('q.qpay_invoice_id', 'is not', null),
          eb('q.cancelled_at', 'is', null),
          eb.not(captured('qpay')),
        ]),
      ]);
    });
}

/**
 * The periodic check of product.md §10: settles invoices whose shopper never came back, closes
 * attempts left open on closed invoices, and gives back surplus captures a provider could not
 * refund at once.
 */
export async function checkPendingInvoices(deps: SettlementDeps, limit = 100): Promise<number> {
  const pending = await openProviderInvoices(deps.db).orderBy('i.created_at').limit(limit).execute();
  const leftOpen = await invoicesWithOpenAttempts(deps.db).limit(limit).execute();
  for (const { invoice_id } of [...pending, ...leftOpen]) {
    try {
      await settleInvoice(deps, invoice_id, 'check');
    } catch (error) {
      deps.reportError(error, `periodic check of invoice ${invoice_id} failed`);
    }
  }
  try {
    await refundOpenSurplus(deps, limit);
  } catch (error) {
    deps.reportError(error, 'refunding surplus captures failed');
  }
  return pending.length + leftOpen.length;
}
