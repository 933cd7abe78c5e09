import type { ErrorLog } from '../../lib/logging.js';
import { subscriberName, writePaymentLog } from '../providers/payment-log.js';
import { chargeRenewal, type RenewalStepLine, type RenewalStepLog } from './renewal-charge.js';
import { claimStepWithFacts, type RenewalDeps, type RenewalOutcome, settleStep } from './renewal-claim.js';
import { renewalInvoice } from './renewal-invoice.js';
import { lapse } from './renewal-lapse.js';
import '../premium/tables.js';

/** How long a claimed billing step is held before another process may take it (a crash). */
const CLAIM_MS = 10 * 60_000;

/**
 * One billing step of a subscription whose `next_billing_at` has come (product.md §12): the
 * charge on the end date, a retry 1, 3 and 5 days later (access kept meanwhile), the lapse
 * after the last. Exactly once per step whatever runs at once: the step is claimed by moving
 * `next_billing_at` in one UPDATE; the charge carries the invoice (subscription + period) and
 * the attempt number, so a provider asked twice answers the first result and never takes a
 * second payment; the paid invoice is applied by activation-once.ts.
 */
export async function runRenewalStep(
  deps: RenewalDeps,
  subscriptionId: string,
  log?: ErrorLog,
): Promise<RenewalOutcome> {
  const now = deps.clock.now();
  const [facts] = await claimStepWithFacts(deps.db, {
    subscriptionId,
    now,
    until: new Date(now.getTime() + CLAIM_MS),
  });
  if (!facts) return 'skipped';
  if (!facts.is_auto_renew) {
    await settleStep(deps.db, subscriptionId, { next_billing_at: null });
    return 'ended';
  }

  const card = facts.card_token
    ? { provider_token: facts.card_token, brand: facts.card_brand ?? '', last4: facts.card_last4 ?? '' }
    : null;
  const attempt = facts.renewal_attempts + 1;
  const invoice = await renewalInvoice(
    deps,
    facts,
    card ? { attempt, brand: card.brand, last4: card.last4 } : undefined,
  );
  const party = {
    orderNumber: invoice.invoice_id,
    userId: facts.owner_id,
    subscriberName: subscriberName(facts),
    packageName: facts.name_en,
    purchasePrice: invoice.amount,
  };
  const line: RenewalStepLog['line'] = (entry) => ({ ...party, currentProcess: 'renewal', ...entry });
  const logStep: RenewalStepLog = Object.assign(
    (entry: RenewalStepLine) => writePaymentLog(deps, line(entry)),
    {
      line,
    },
  );

  if (invoice.status === 'paid') {
    // Paid by its link or "pay now" already: activation moved the period on.
    return 'renewed';
  }
  if (!card) {
    // No card to charge: the reminder carried the link; unpaid at the end, the period ends.
    await lapse(deps, facts, invoice.invoice_id, log);
    await logStep({ type: 'info', message: 'no saved card; the unpaid renewal lapsed' });
    return 'lapsed';
  }
  return chargeRenewal(deps, { facts, invoice, card, attempt, now, logStep }, log);
}
