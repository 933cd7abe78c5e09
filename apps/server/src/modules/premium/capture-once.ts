import type { PaymentMethod } from '@tunes/shared/billing';
import { sql } from 'kysely';
import type { Deps } from '../../deps.js';
import type { ErrorLog } from '../../lib/logging.js';
import type { ProviderCard } from '../providers/card-gateway.js';
import { GatewayError } from '../providers/exchange.js';
import {
  type PaymentLogEntry,
  type PaymentStep,
  subscriberName,
  writePaymentLog,
  writePaymentLogs,
} from '../providers/payment-log.js';
import { applyPaidInvoice } from './activation-once.js';
import { findInvoiceParty, type InvoiceParty } from './invoice-party.js';
import { recordVoid } from './ledger.js';
import { markCardVoided, type OpenAttempts, openAttempts } from './open-attempts.js';
import { tellPaid } from './payment-notices.js';
import { cancelQpayInvoice, checkQpayPayment } from './qpay-payments.js';
import { keepCard } from './saved-cards.js';
import { refundSurplus } from './surplus-refunds.js';
import './tables.js';

/**
 * One capture per invoice (product.md §12 "Money", DESIGN §7): an invoice is paid once, by
 * whichever provider captures first. Every capture a provider reports — the card page, a saved
 * card's charge, a QPay payment — is one ledger row, written in the transaction that applies it.
 * The first capture of an open invoice of its price pays it; any other (the second tab's, one
 * for an invoice expired, closed or of a deleted account, a plan change for a period that has
 * passed) is `surplus`: never access, refunded at its provider at once, logged and told to the
 * payer. When an invoice is paid, its other pending attempts are closed at their providers (the
 * card page voided, the QPay invoice cancelled); a provider that refuses because it was paid
 * meanwhile shows a capture, which is then given back.
 */

/** A provider's report that money was taken for one of our invoices. */
export interface Capture {
  method: PaymentMethod;
  /** The provider's name for it: `session` (the card page), `charge:<attempt>`, a QPay payment id. */
  reference: string;
  amount: number;
  currency: string;
  card?: ProviderCard | null | undefined;
}

export type CaptureDeps = Pick<Deps, 'db' | 'clock' | 'config' | 'paymentGateway' | 'qpay' | 'reportError'>;

export type CaptureOutcome =
  | { outcome: 'applied'; subscriptionId: string | null }
  | { outcome: 'surplus'; reason: string }
  /** Recorded before: the same report again changes nothing. */
  | { outcome: 'known' };

/**
 * Records a capture once and decides it in one transaction, under the invoice's row lock (so a
 * deletion, an expiry or another capture of the same invoice is either wholly before or wholly
 * after): the first capture of an open invoice of its price applies it (activation-once.ts);
 * anything else is surplus and is refunded right after. Then the invoice's other attempts close.
 * `first`: the caller's log lines about this capture (the provider's answer), written in the
 * same statement as the capture's own line.
 */
export async function takeCapture(
  deps: CaptureDeps,
  invoiceId: string,
  capture: Capture,
  step: PaymentStep,
  log?: ErrorLog,
  first: readonly PaymentLogEntry[] = [],
): Promise<CaptureOutcome> {
  const decided = await decideCapture(deps, invoiceId, capture).catch(async (error: unknown) => {
    await writePaymentLogs(deps, first);
    throw error;
  });
  if (!decided) throw new Error(`no invoice ${invoiceId} for a capture`);
  if (decided.outcome === 'known') {
    await writePaymentLogs(deps, first);
    return decided;
  }

  const { party } = decided;
  const line = (entry: Pick<PaymentLogEntry, 'currentProcess' | 'type' | 'message'>): PaymentLogEntry => ({
    ...party,
    orderNumber: invoiceId,
    ...entry,
  });
  if (decided.outcome === 'applied') {
    const { period } = decided;
    await writePaymentLogs(deps, [
      ...first,
      ...(period
        ? [
            line({
              currentProcess: 'activation',
              type: 'info',
              message: `subscription ${period.subscriptionId} activated`,
            }),
          ]
        : []),
    ]);
    // What was open at the lock, less this capture: an attempt opened after it is closed by the
    // periodic check (`invoicesWithOpenAttempts`), as one opened after any read would be.
    await closeAttempts(deps, invoiceId, step, log, { open: decided.open, party });
    // Every applied capture tells its payer once, with the receipt's link (payment-notices.ts).
    const subscriptionId = period?.subscriptionId ?? null;
    await tellPaid(deps, invoiceId, subscriptionId, log, decided.paid(period?.until ?? null));
    return { outcome: 'applied', subscriptionId };
  }
  await writePaymentLogs(deps, [
    ...first,
    line({
      currentProcess: step,
      type: 'warning',
      message: `${capture.method} capture ${capture.reference} of ${capture.amount} ${capture.currency} not applied (${decided.reason}); refunding`,
    }),
  ]);
  await refundSurplus(deps, { id: decided.ledgerId, invoiceId, userId: decided.userId, ...capture }, log);
  await closeAttempts(deps, invoiceId, step, log);
  return { outcome: 'surplus', reason: decided.reason };
}

/** The capture's transaction: recorded once in the ledger, and applied or found surplus. */
async function decideCapture(deps: CaptureDeps, invoiceId: string, capture: Capture) {
  const now = deps.clock.now();
  return deps.db.transaction().execute(async (trx) => {
    // The invoice, locked (a concurrent capture, expiry or deletion is wholly before or after
    // this), with its owner's state, what its log lines and message name, and its attempts.
    const captured = (method: 'card' | 'qpay', reference?: string) =>
      sql<boolean>`exists (select 1 from payment_ledger l where l.invoice_id = i.invoice_id
        and l.entry = 'capture' and l.method = ${method}
        ${reference ? sql`and l.reference = ${reference}` : sql``})`;
    const invoice = await trx
      .selectFrom('payment_invoices as i')
      .leftJoin('users as u', 'u.id', 'i.user_id')
      .leftJoin('packages as p', 'p.id', 'i.package_id')
      .leftJoin('qpay_invoices as q', 'q.invoice_id', 'i.invoice_id')
      .select([
        'u.first_name',
        'u.last_name',
        'u.username',
        'p.name_en',
        'p.name_mn',
        'i.provider_token',
        'i.card_voided_at',
        'q.qpay_invoice_id',
        'q.cancelled_at as qpay_cancelled_at',
        captured('card', 'session').as('card_captured'),
        captured('qpay').as('qpay_captured'),
        // Whether the payer bought before, for a purchase's message (welcome or not).
        sql<boolean>`i.kind = 'purchase' and exists (
          select 1 from payment_invoices earlier
          where earlier.user_id = i.user_id and earlier.kind = 'purchase'
            and earlier.status in ('paid', 'refunded', 'partly_refunded')
            and earlier.invoice_id <> i.invoice_id and earlier.settled_at < ${now}
        )`.as('bought_before'),
      ])
      .select([
        'i.status',
        'i.amount',
        'i.currency',
        'i.kind',
        'i.user_id',
        'i.save_card',
        'i.method',
        'i.subscription_id',
        'i.period_end',
        'u.deleted_at',
      ])
      .where('i.invoice_id', '=', invoiceId)
      .forUpdate('i')
      .executeTakeFirst();
    if (!invoice) return null;
    const party: InvoiceParty | null =
      invoice.username !== null && invoice.name_en !== null
        ? {
            orderNumber: invoiceId,
            userId: invoice.user_id,
            subscriberName: subscriberName({
              first_name: invoice.first_name ?? '',
              last_name: invoice.last_name ?? '',
              username: invoice.username,
            }),
            packageName: invoice.name_en,
            purchasePrice: invoice.amount,
          }
        : null;

    let reason: string | null = null;
    if (invoice.status !== 'created') reason = `the invoice is already ${invoice.status}`;
    else if (invoice.deleted_at) reason = 'the account was deleted';
    else if (capture.amount !== invoice.amount || capture.currency !== invoice.currency) {
      reason = `the provider took ${capture.amount} ${capture.currency}; the invoice is ${invoice.amount} ${invoice.currency}`;
    } else if (invoice.kind === 'change') {
      // A plan change belongs to its period: paid after that period ended, it buys nothing.
      const subscription = invoice.subscription_id
        ? await trx
            .selectFrom('subscriptions')
            .select('end_date')
            .where('id', '=', invoice.subscription_id)
            .forUpdate()
            .executeTakeFirst()
        : undefined;
      const periodEnd = invoice.period_end?.getTime();
      if (!subscription || periodEnd === undefined || subscription.end_date.getTime() !== periodEnd) {
        reason = 'the plan change was for a period that has ended';
      } else if (now.getTime() >= periodEnd) reason = 'the plan change was paid after its period ended';
    }

    // Recorded once: the same report again (a retry, a second check) is known and changes nothing.
    const row = await trx
      .insertInto('payment_ledger')
      .values({
        invoice_id: invoiceId,
        subscription_id: invoice.subscription_id,
        entry: 'capture',
        method: capture.method,
        reference: capture.reference,
        amount: capture.amount,
        currency: capture.currency,
        outcome: reason ? 'surplus' : 'applied',
        reason,
        created_at: now,
      })
      .onConflict((oc) => oc.columns(['invoice_id', 'entry', 'method', 'reference']).doNothing())
      .returning('id')
      .executeTakeFirst();
    if (!row) return { outcome: 'known' as const };
    if (reason)
      return { outcome: 'surplus' as const, reason, ledgerId: row.id, userId: invoice.user_id, party };

    const { card } = capture;
    if (card && invoice.save_card) await keepCard({ db: trx, clock: deps.clock }, invoice.user_id, card);
    // A renewal link paid with QPay (or a QPay page paid by card): the receipt names the method.
    const period = await applyPaidInvoice(trx, invoiceId, now, {
      method: capture.method,
      cardBrand: card?.brand ?? null,
      cardLast4: card?.last4 ?? null,
    });
    const open: OpenAttempts = {
      currency: invoice.currency,
      card:
        invoice.provider_token !== null &&
        invoice.card_voided_at === null &&
        !invoice.card_captured &&
        !(capture.method === 'card' && capture.reference === 'session'),
      qpay:
        invoice.qpay_invoice_id !== null &&
        invoice.qpay_cancelled_at === null &&
        !invoice.qpay_captured &&
        capture.method !== 'qpay'
          ? invoice.qpay_invoice_id
          : null,
    };
    const paid = (until: Date | null) => ({
      invoice_id: invoiceId,
      user_id: invoice.user_id,
      kind: invoice.kind,
      amount: invoice.amount,
      currency: invoice.currency,
      until: until ?? invoice.period_end,
      name_en: invoice.name_en ?? '',
      name_mn: invoice.name_mn ?? '',
      bought_before: invoice.bought_before,
    });
    return { outcome: 'applied' as const, period, open, party, paid };
  });
}

/**
 * Closes an invoice's attempts that are still open at their providers: the card page is voided,
 * the QPay invoice cancelled. A provider that says it was paid meanwhile shows a capture, taken
 * here (applied if the invoice is still open, else refunded). Answers whether every attempt is
 * now closed; false leaves the invoice for the next check.
 */
export async function closeAttempts(
  deps: CaptureDeps,
  invoiceId: string,
  step: PaymentStep,
  log?: ErrorLog,
  /** What the caller read already: the attempts open, and who the log lines name. */
  known?: { open: OpenAttempts | null; party: InvoiceParty | null },
): Promise<boolean> {
  const open = known ? known.open : await openAttempts(deps.db, invoiceId);
  // Nothing open (a renewal charged to the saved card, a page that captured): no more to read.
  if (!open || (!open.card && !open.qpay)) return true;
  let closed = true;
  const party = known ? known.party : await findInvoiceParty(deps, invoiceId);
  const note = (type: 'info' | 'warning', message: string, error?: GatewayError) =>
    writePaymentLog(deps, {
      ...party,
      orderNumber: invoiceId,
      currentProcess: step,
      type,
      message,
      ...(error ? { request: error.request, response: error.response } : {}),
    });

  if (open.card) {
    try {
      await deps.paymentGateway.voidPayment(invoiceId);
      await markCardVoided(deps, invoiceId, open.currency);
      await note('info', 'card page voided');
    } catch (error) {
      if (!(error instanceof GatewayError)) throw error;
      const code = (error.response as { error?: unknown } | null)?.error;
      if (code === 'not_found' || code === 'already_closed')
        await markCardVoided(deps, invoiceId, open.currency);
      else if (code === 'already_paid') {
        const check = await deps.paymentGateway.checkPayment(invoiceId).catch((failure: unknown) => {
          if (failure instanceof GatewayError) return null;
          throw failure;
        });
        if (check?.result.status === 'paid') {
          const { amount, currency, card } = check.result;
          await takeCapture(
            deps,
            invoiceId,
            { method: 'card', reference: 'session', amount, currency, card },
            step,
            log,
          );
        } else closed = false;
      } else {
        await note('warning', `card page not voided (${error.message}); left for the next check`, error);
        closed = false;
      }
    }
  }

  if (open.qpay) {
    const cancelled = await cancelQpayInvoice(deps, invoiceId);
    if (cancelled instanceof GatewayError) {
      // QPay refuses to cancel a paid invoice: its payments are captures of their own.
      const found = await checkQpayPayment(deps, open.qpay).catch((failure: unknown) => {
        if (failure instanceof GatewayError) return null;
        throw failure;
      });
      if (found && found.result.captures.length > 0) {
        for (const payment of found.result.captures) {
          await takeCapture(deps, invoiceId, { method: 'qpay', ...payment }, step, log);
        }
      } else {
        await note(
          'warning',
          `QPay invoice not cancelled (${cancelled.message}); left for the next check`,
          cancelled,
        );
        closed = false;
      }
    } else if (cancelled) {
      await recordVoid(deps.db, {
        invoiceId,
        method: 'qpay',
        reference: open.qpay,
        currency: open.currency,
        now: deps.clock.now(),
      });
      await note('info', 'QPay invoice cancelled');
    }
  }
  return closed;
}
