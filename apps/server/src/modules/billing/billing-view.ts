import type { Billing } from '@tunes/shared/billing';
import { API_ERROR_CODES } from '@tunes/shared/error-codes';
import { type BillingOffer, offerDiscount } from '@tunes/shared/offers';
import type { SubscriptionView } from '@tunes/shared/profile';
import type { Deps } from '../../deps.js';
import { conflict } from '../../lib/errors.js';
import { coversPlan, subscriptionOffer } from '../offers/pricing.js';
import { savedCard } from '../premium/saved-cards.js';
import { subscriptionView } from '../premium/subscriptions.js';
import { comingPrice, renewalCostOf } from '../prices/price-schedule.js';
import { ownedSubscription } from '../subscriptions/owned-subscription.js';
import { trialEndingAt } from '../trials/state.js';
import { invoicePaymentPage } from './invoice-payment-page.js';
import { chosenRenewalMethod } from './pay-renewals-by.js';
import { lastRetryAt, type RenewalDeps } from './renewal-claim.js';
import { renewalInvoiceFor } from './renewal-invoice.js';

const names = (row: { name_en: string; name_mn: string }) => [
  { Language: 'en' as const, Value: row.name_en },
  { Language: 'mn' as const, Value: row.name_mn },
];

/**
 * `GET /api/users/me/billing`: the card on file and what happens at the end of the listener's
 * own current plan bought here (next charge, amount, a waiting downgrade, a failed renewal).
 */
export async function billingOverview(deps: Pick<Deps, 'db' | 'clock'>, userId: string): Promise<Billing> {
  const now = deps.clock.now();
  const card = await savedCard(deps, userId);
  const row = await deps.db
    .selectFrom('subscriptions as s')
    .innerJoin('packages as p', (join) =>
      join.on((eb) => eb('p.id', '=', eb.fn.coalesce('s.next_package_id', 's.package_id'))),
    )
    .innerJoin('packages as current', 'current.id', 's.package_id')
    .select([
      's.id',
      's.end_date',
      's.is_auto_renew',
      's.next_billing_at',
      's.renewal_attempts',
      's.grace_until',
      's.next_package_id',
      'p.merchant_code',
      'p.name_en',
      'p.name_mn',
      'p.id as package_id',
      'p.cost as plan_cost',
      'p.duration_months',
      'p.currency',
      'p.allow_share',
      'p.max_shared_users',
      'current.merchant_code as current_code',
      'current.name_en as current_name_en',
      'current.name_mn as current_name_mn',
    ])
    .select((eb) =>
      renewalCostOf({
        subscriptionId: eb.ref('s.id'),
        packageId: eb.ref('p.id'),
        periodStart: eb.ref('s.end_date'),
        cost: eb.ref('p.cost'),
      }).as('cost'),
    )
    .where('s.owner_id', '=', userId)
    .where('s.source_type', '=', 'Web')
    .where((eb) => eb.or([eb('s.end_date', '>', now), eb('s.grace_until', '>', now)]))
    .orderBy('s.end_date', 'desc')
    .executeTakeFirst();
  if (!row) return { card, offer: null, renewal: null, trial: null };

  let pendingChange: NonNullable<Billing['renewal']>['pendingChange'] = null;
  if (row.next_package_id !== null) {
    const seats = row.allow_share ? row.max_shared_users : 0;
    const members = await deps.db
      .selectFrom('subscription_members')
      .select((eb) => eb.fn.countAll<number>().as('count'))
      .where('subscription_id', '=', row.id)
      .executeTakeFirstOrThrow();
    pendingChange = {
      MerchantCode: row.merchant_code,
      Name: names(row),
      startsAt: row.end_date.toISOString(),
      membersLosingSeat: Math.max(0, Number(members.count) - seats),
    };
  }
  let failedRenewal: NonNullable<Billing['renewal']>['failedRenewal'] = null;
  if (row.renewal_attempts > 0 && row.grace_until) {
    const invoice = await renewalInvoiceFor(deps, row.id, row.end_date);
    if (invoice) {
      failedRenewal = {
        invoiceId: invoice.invoice_id,
        attempts: row.renewal_attempts,
        nextAttemptAt: row.next_billing_at?.toISOString() ?? null,
        // The last retry, as the failure messages say; grace_until holds a day more in case of a late job.
        accessUntil: lastRetryAt(row.end_date).toISOString(),
      };
    }
  }
  const offer = await offerOf(deps, row);
  return {
    card,
    offer,
    renewal: {
      subscriptionId: row.id,
      MerchantCode: row.merchant_code,
      Name: names(row),
      autoRenew: row.is_auto_renew,
      nextChargeAt: row.is_auto_renew ? (row.next_billing_at ?? row.end_date).toISOString() : null,
      amount: offer?.nextAmount ?? row.cost,
      currency: row.currency,
      renewsBy: card && (await chosenRenewalMethod(deps, userId)) === 'card' ? 'card' : 'link',
      endDate: row.end_date.toISOString(),
      pendingChange,
      failedRenewal,
      priceChange: await priceChangeOf(deps, row),
    },
    trial: await trialOf(deps, row),
  };
}

/** The free days of a first-time trial, while the period shown is one (trials/). */
async function trialOf(
  deps: Pick<Deps, 'db'>,
  row: { id: string; end_date: Date; cost: number; is_auto_renew: boolean },
): Promise<Billing['trial']> {
  const trial = await trialEndingAt(deps.db, row.id, row.end_date);
  return trial
    ? {
        endsAt: row.end_date.toISOString(),
        amountAfter: row.cost,
        method: trial.method,
        cancelled: !row.is_auto_renew,
      }
    : null;
}

/** The offer the plan was bought with, and what the next renewal costs with it (modules/offers). */
async function offerOf(
  deps: Pick<Deps, 'db'>,
  row: { id: string; package_id: number; cost: number },
): Promise<BillingOffer | null> {
  const offer = await subscriptionOffer(deps.db, row.id);
  if (!offer) return null;
  const periodsLeft = Math.max(0, offer.periods - offer.periods_used);
  const discounted = periodsLeft > 0 && coversPlan(offer, row.package_id);
  return {
    code: offer.code,
    kind: offer.kind,
    value: offer.value,
    periodsLeft,
    nextAmount: row.cost - (discounted ? offerDiscount(row.cost, offer) : 0),
  };
}

/** A price rise still ahead of the plan it renews on (prices/price-schedule.ts). */
async function priceChangeOf(
  deps: Pick<Deps, 'db'>,
  row: { id: string; package_id: number; end_date: Date; duration_months: number; plan_cost: number },
): Promise<NonNullable<Billing['renewal']>['priceChange']> {
  const coming = await comingPrice(deps.db, {
    id: row.id,
    packageId: row.package_id,
    endDate: row.end_date,
    months: row.duration_months,
    cost: row.plan_cost,
  });
  return coming && { ...coming, from: coming.from.toISOString() };
}

/**
 * `POST /api/subscriptions/{id}/resume`: auto-renew back on before the end date, with the
 * renewal scheduled again on the end date.
 */
export async function resumeAutoRenew(
  deps: Pick<Deps, 'db' | 'clock'>,
  userId: string,
  subscriptionId: string,
): Promise<SubscriptionView> {
  const now = deps.clock.now();
  const subscription = await ownedSubscription(deps, userId, subscriptionId);
  if (subscription.end_date <= now) {
    throw conflict('This plan has ended; buy it again from the plans page.', API_ERROR_CODES.planEnded);
  }
  if (subscription.source_type !== 'Web') {
    throw conflict('Only a plan bought on this site renews here.', API_ERROR_CODES.planNotRenewable);
  }
  await deps.db
    .updateTable('subscriptions')
    .set({
      is_auto_renew: true,
      cancelled_at: null,
      next_billing_at: subscription.end_date,
      renewal_attempts: 0,
      updated_at: now,
    })
    .where('id', '=', subscriptionId)
    .where('is_auto_renew', '=', false)
    .execute();
  return subscriptionView(deps, subscriptionId);
}

/** `POST /api/subscriptions/{id}/pay-now`: the gateway page for the renewal a card failed to pay. */
export async function payRenewalNow(deps: RenewalDeps, userId: string, subscriptionId: string) {
  const subscription = await ownedSubscription(deps, userId, subscriptionId);
  const invoice = await renewalInvoiceFor(deps, subscription.id, subscription.end_date);
  if (invoice?.status !== 'created') {
    throw conflict('There is no unpaid renewal for this plan.', API_ERROR_CODES.nothingToPay);
  }
  return { url: await invoicePaymentPage(deps, invoice.invoice_id), invoiceId: invoice.invoice_id };
}
