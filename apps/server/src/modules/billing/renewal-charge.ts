import { RENEWAL_RETRY_DAYS } from '@tunes/shared/billing';
import { DAY_MS } from '@tunes/shared/constants';
import type { Deps } from '../../deps.js';
import type { ErrorLog } from '../../lib/logging.js';
import { payments } from '../../lib/metrics.js';
import { takeCapture } from '../premium/capture-once.js';
import { notifyOnce } from '../premium/notices.js';
import { GatewayError } from '../providers/exchange.js';
import type { PaymentLogEntry } from '../providers/payment-log.js';
import { invoicePaymentPage, sitePaymentPage } from './invoice-payment-page.js';
import { billingMessages } from './messages.js';
import {
  lastRetryAt,
  planName,
  type RenewalDeps,
  type RenewalFacts,
  type RenewalOutcome,
  settleStep,
} from './renewal-claim.js';
import type { renewalInvoice } from './renewal-invoice.js';
import { lapse } from './renewal-lapse.js';
import '../premium/tables.js';

/** When the provider cannot be reached, the step is tried again this much later, uncounted. */
const UNREACHABLE_RETRY_MS = 60 * 60_000;
/** The first charge plus one per retry day. */
const MAX_ATTEMPTS = 1 + RENEWAL_RETRY_DAYS.length;
const LAST_RETRY_DAYS = RENEWAL_RETRY_DAYS[RENEWAL_RETRY_DAYS.length - 1] as number;

/** A line of the renewal's payment log; the invoice and subscriber are filled in by the step. */
export type RenewalStepLine = Omit<
  PaymentLogEntry,
  'orderNumber' | 'userId' | 'subscriberName' | 'packageName' | 'purchasePrice' | 'currentProcess'
>;
export type RenewalStepLog = ((entry: RenewalStepLine) => Promise<void>) & {
  /** The whole line, unwritten: for a statement that writes it with others. */
  line: (entry: RenewalStepLine) => PaymentLogEntry;
};

interface RenewalCharge {
  facts: RenewalFacts;
  invoice: Awaited<ReturnType<typeof renewalInvoice>>;
  card: { provider_token: string; brand: string; last4: string };
  attempt: number;
  now: Date;
  logStep: RenewalStepLog;
}

/**
 * The charge of a claimed renewal step on the saved card: paid, the capture is applied and the
 * subscriber told; the provider unreachable, the step comes again later, uncounted; declined, a
 * retry is set (the subscriber gets the invoice's payment link) or, after the last, the renewal lapses.
 */
export async function chargeRenewal(
  deps: RenewalDeps,
  { facts, invoice, card, attempt, now, logStep }: RenewalCharge,
  log?: ErrorLog,
): Promise<RenewalOutcome> {
  const subscriptionId = facts.id;
  const price = { amount: invoice.amount, currency: invoice.currency };
  let result: Awaited<ReturnType<Deps['paymentGateway']['chargeCard']>>;
  try {
    result = await deps.paymentGateway.chargeCard({
      cardToken: card.provider_token,
      invoiceId: invoice.invoice_id,
      attempt,
      amount: invoice.amount,
      currency: invoice.currency,
    });
  } catch (error) {
    if (!(error instanceof GatewayError)) throw error;
    await logStep({
      type: 'error',
      message: error.message,
      request: error.request,
      response: error.response,
    });
    await settleStep(deps.db, subscriptionId, {
      next_billing_at: new Date(now.getTime() + UNREACHABLE_RETRY_MS),
    });
    return 'deferred';
  }
  const charged: RenewalStepLine = {
    type: result.result.status === 'paid' ? 'info' : 'warning',
    message: `charge attempt ${attempt}: ${result.result.status}`,
    request: result.request,
    response: result.response,
  };

  if (result.result.status === 'paid') {
    // The charge's line is written with the activation's, in one statement.
    const taken = await takeCapture(
      deps,
      invoice.invoice_id,
      {
        method: 'card',
        reference: result.result.reference ?? `charge:${attempt}`,
        amount: result.result.amount,
        currency: result.result.currency,
      },
      'renewal',
      log,
      [logStep.line(charged)],
    );
    if (taken.outcome === 'surplus') {
      // Paid by its link meanwhile (or another amount taken): this charge was given back.
      deps.reportError(
        new Error(`renewal charge not applied: ${taken.reason}`),
        `renewal ${invoice.invoice_id}`,
      );
      return 'deferred';
    }
    // The capture told the subscriber, with the receipt's link (premium/payment-notices.ts).
    return 'renewed';
  }

  await logStep(charged);
  payments.inc({ method: 'card', kind: 'renewal', outcome: 'declined' });
  if (attempt >= MAX_ATTEMPTS) {
    await lapse(deps, facts, invoice.invoice_id, log);
    return 'lapsed';
  }
  const retryDays = RENEWAL_RETRY_DAYS[attempt - 1] ?? LAST_RETRY_DAYS;
  const retryAt = new Date(facts.end_date.getTime() + retryDays * DAY_MS);
  // Access is promised until the last retry (the profile and every failure message say that day)
  // and held a day past it, so a late job never cuts a subscriber off before the promise.
  const accessUntil = lastRetryAt(facts.end_date);
  await settleStep(deps.db, subscriptionId, {
    next_billing_at: retryAt,
    renewal_attempts: attempt,
    grace_until: new Date(accessUntil.getTime() + DAY_MS),
  });
  // The gateway's page is opened now, so the invoice stays payable a day past the last retry
  // (renewal-lapse.ts keeps an invoice with an open page); but the message links to our own page
  // for it (QPay or a card), never to the gateway's raw address.
  await invoicePaymentPage(deps, invoice.invoice_id).catch(() => null);
  const link = sitePaymentPage(deps.config.PUBLIC_URL, invoice.invoice_id);
  await notifyOnce(
    deps,
    {
      key: `failed:${invoice.invoice_id}:${attempt}`,
      userId: facts.owner_id,
      link,
      text: (lang) =>
        billingMessages.chargeFailed(lang, planName(facts, lang), price, retryAt, accessUntil, link),
    },
    log,
  );
  return 'retrying';
}
