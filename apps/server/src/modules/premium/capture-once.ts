import type { PaymentMethod } from '@tunes/shared/billing';
import type { Deps } from '../../deps.js';
import type { ErrorLog } from '../../lib/logging.js';
import type { ProviderCard } from '../providers/card-gateway.js';
import { GatewayError } from '../providers/exchange.js';
import { type PaymentStep, writePaymentLog } from '../providers/payment-log.js';
import { applyPaidInvoice } from './activation-once.js';
import { findInvoiceParty } from './invoice-party.js';
import { recordVoid } from './ledger.js';
import { markCardVoided, openAttempts } from './open-attempts.js';
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
 */
export async function takeCapture(
  deps: CaptureDeps,
  invoiceId: string,
  capture: Capture,
  step: PaymentStep,
  log?: ErrorLog,
): Promise<CaptureOutcome> {
  const now = deps.clock.now();
  const decided = await deps.db.transaction().execute(async (trx) => {
    // The invoice, locked (a concurrent capture, expiry or deletion is wholly before or after
    // this), with its owner's state.
    const invoice = await trx
      .selectFrom('payment_invoices as i')
      .leftJoin('users as u', 'u.id', 'i.user_id')
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
    if (reason) return { outcome: 'surplus' as const, reason, ledgerId: row.id, userId: invoice.user_id };

    const { card } = capture;
    if (capture.method !== invoice.method || card) {
      // A renewal link paid with QPay (or a QPay page paid by card): the receipt names the method.
      await trx
        .updateTable('payment_invoices')
        .set({
          method: capture.method,
          ...(card ? { card_brand: card.brand, card_last4: card.last4 } : {}),
        })
        .where('invoice_id', '=', invoiceId)
        .execute();
    }
    if (card && invoice.save_card) await keepCard({ db: trx, clock: deps.clock }, invoice.user_id, card);
    const subscriptionId = await applyPaidInvoice(trx, invoiceId, now);
    return { outcome: 'applied' as const, subscriptionId };
  });
  if (!decided) throw new Error(`no invoice ${invoiceId} for a capture`);
  if (decided.outcome === 'known') return decided;

  const party = await findInvoiceParty(deps, invoiceId);
  if (decided.outcome === 'applied') {
    if (decided.subscriptionId) {
      await writePaymentLog(deps, {
        ...party,
        orderNumber: invoiceId,
        currentProcess: 'activation',
        type: 'info',
        message: `subscription ${decided.subscriptionId} activated`,
      });
    }
    await closeAttempts(deps, invoiceId, step, log);
    // Every applied capture tells its payer once, with the receipt's link (payment-notices.ts).
    await tellPaid(deps, invoiceId, decided.subscriptionId, log);
    return { outcome: 'applied', subscriptionId: decided.subscriptionId };
  }
  await writePaymentLog(deps, {
    ...party,
    orderNumber: invoiceId,
    currentProcess: step,
    type: 'warning',
    message: `${capture.method} capture ${capture.reference} of ${capture.amount} ${capture.currency} not applied (${decided.reason}); refunding`,
  });
  await refundSurplus(deps, { id: decided.ledgerId, invoiceId, userId: decided.userId, ...capture }, log);
  await closeAttempts(deps, invoiceId, step, log);
  return { outcome: 'surplus', reason: decided.reason };
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
): Promise<boolean> {
  const open = await openAttempts(deps.db, invoiceId);
  // Nothing open (a renewal charged to the saved card, a page that captured): no more to read.
  if (!open || (!open.card && !open.qpay)) return true;
  let closed = true;
  const party = await findInvoiceParty(deps, invoiceId);
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
