import type { PaymentMethod } from '@tunes/shared/billing';
import type { Deps } from '../../deps.js';
import type { ErrorLog } from '../../lib/logging.js';
import type { ProviderCard } from '../providers/card-gateway.js';
import { GatewayError } from '../providers/exchange.js';
import {
  type PaymentLogEntry,
  type PaymentStep,
  writePaymentLog,
  writePaymentLogs,
} from '../providers/payment-log.js';
import { decideCapture } from './capture-decision.js';
import { findInvoiceParty, type InvoiceParty } from './invoice-party.js';
import { recordVoid } from './ledger.js';
import { markCardVoided, type OpenAttempts, openAttempts } from './open-attempts.js';
import { tellPaid } from './payment-notices.js';
import { cancelQpayInvoice, checkQpayPayment } from './qpay-payments.js';
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
