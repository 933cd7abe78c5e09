import { REMINDER_DAYS_BEFORE } from '@tunes/shared/billing';
import { DAY_MS } from '@tunes/shared/constants';
import type { Deps } from '../../deps.js';
import type { ErrorLog } from '../../lib/logging.js';
import { type Notice, notifyOnce } from '../premium/notices.js';
import { invoicePaymentPage, sitePaymentPage } from './invoice-payment-page.js';
import { billingMessages } from './messages.js';
import { chosenRenewalMethod } from './pay-renewals-by.js';
import { planName, type RenewalDeps, reminderFacts } from './renewal-claim.js';
import { renewalInvoice } from './renewal-invoice.js';
import '../premium/tables.js';

/**
 * Whether the subscriber renews by a QPay link (their choice, pay-renewals-by.ts) or last paid
 * with QPay: their renewal link is then the site's page, which offers QPay and card.
 */
async function paysByQpay(deps: Pick<Deps, 'db'>, userId: string): Promise<boolean> {
  if ((await chosenRenewalMethod(deps, userId)) === 'qpay') return true;
  const last = await deps.db
    .selectFrom('payment_invoices')
    .select('method')
    .where('user_id', '=', userId)
    .where('status', '=', 'paid')
    .orderBy('settled_at', 'desc')
    .limit(1)
    .executeTakeFirst();
  return last?.method === 'qpay';
}

/**
 * The reminder 3 days before a period ends (product.md §12), once per period: with a saved card
 * it names the charge to come; without one it carries the renewal invoice's payment link (the
 * site's page offering QPay and card for a subscriber who last paid with QPay, else the gateway's).
 */
export async function remindRenewal(
  deps: RenewalDeps,
  subscriptionId: string,
  log?: ErrorLog,
): Promise<boolean> {
  const now = deps.clock.now();
  const facts = await reminderFacts(deps.db, subscriptionId);
  if (!facts?.is_auto_renew || facts.end_date <= now) return false;
  if (facts.end_date.getTime() - now.getTime() > REMINDER_DAYS_BEFORE * DAY_MS) return false;
  // The subscription's offer prices the coming period as its renewal invoice will (modules/offers).
  const price = { amount: facts.cost - facts.discount, currency: facts.currency };
  // Once per period: the notice's key, and its statement records that the period's reminder went out.
  const remind = (content: Pick<Notice, 'link' | 'text'>) =>
    notifyOnce(
      deps,
      {
        key: `reminder:${facts.id}:${facts.end_date.toISOString()}`,
        userId: facts.owner_id,
        remindsOf: { subscriptionId, endDate: facts.end_date },
        ...content,
      },
      log,
    );
  // The end of a first-time trial's free days says so, and how to pay nothing (trials/).
  const trial = facts.trial_method !== null;
  const trialPlans = (lang: 'en' | 'mn') => ({
    trial: lang === 'mn' ? facts.ending_name_mn : facts.ending_name_en,
    next: planName(facts, lang),
  });
  if (facts.card_token) {
    const cardName = `${facts.card_brand} •••• ${facts.card_last4}`;
    const profile = `${deps.config.PUBLIC_URL}/profile`;
    return remind({
      ...(trial ? { link: profile } : {}),
      text: (lang) =>
        trial
          ? billingMessages.trialEndsCard(lang, trialPlans(lang), price, facts.end_date, cardName, profile)
          : billingMessages.reminderCard(lang, planName(facts, lang), price, facts.end_date, cardName),
    });
  }
  const invoice = await renewalInvoice(deps, facts);
  const link = (await paysByQpay(deps, facts.owner_id))
    ? sitePaymentPage(deps.config.PUBLIC_URL, invoice.invoice_id)
    : await invoicePaymentPage(deps, invoice.invoice_id);
  return remind({
    link,
    text: (lang) =>
      trial
        ? billingMessages.trialEndsLink(lang, trialPlans(lang), price, facts.end_date, link)
        : billingMessages.reminderLink(lang, planName(facts, lang), price, facts.end_date, link),
  });
}
