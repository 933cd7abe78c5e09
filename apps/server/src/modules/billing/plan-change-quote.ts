import { PAYMENT_CURRENCY } from '@tunes/shared/constants';
import { API_ERROR_CODES } from '@tunes/shared/error-codes';
import { PREMIUM_OFFERS } from '@tunes/shared/premium-rules';
import type { Deps } from '../../deps.js';
import { badRequest, conflict } from '../../lib/errors.js';
import { periodPrices } from '../offers/pricing.js';
import { addMonths } from '../premium/period.js';
import { findPlanByCode } from '../premium/plans.js';
import { ownedSubscription } from '../subscriptions/owned-subscription.js';
import { trialEndingAt } from '../trials/state.js';

/** What a plan costs per month, so plans of different lengths compare. */
const monthly = (plan: { cost: number; duration_months: number }) =>
  plan.cost / Math.max(1, plan.duration_months);

/**
 * The difference an upgrade costs for the rest of the period: the new plan's price less the
 * old one's, times the share of the period still to run, in whole tögrög.
 */
export function proratedDifference(
  current: { cost: number },
  target: { cost: number },
  period: { start: Date; end: Date },
  now: Date,
): number {
  const length = period.end.getTime() - period.start.getTime();
  // A period paid ahead (it starts later) is upgraded whole, never for more than its length.
  const left = Math.max(0, period.end.getTime() - Math.max(now.getTime(), period.start.getTime()));
  if (length <= 0) return 0;
  return Math.max(0, Math.round(((target.cost - current.cost) * left) / length));
}

export type Subscription = Awaited<ReturnType<typeof ownedSubscription>>;
type TargetPlan = NonNullable<Awaited<ReturnType<typeof findPlanByCode>>>;

/** What confirming a change to a plan does now, and the rows it is worked out from. */
export interface PlanChangeQuote {
  kind: 'upgrade' | 'downgrade' | 'keep';
  /** Charged at once: the upgrade's prorated difference (its open invoice's, once there is one). */
  amount: number;
  currency: string;
  startsAt: Date;
  subscription: Subscription;
  target: TargetPlan;
  /** The upgrade's invoice key: one invoice per subscription, period and plan. */
  invoiceKey: string | null;
  /** What the subscription's offer took off the upgrade (modules/offers); 0 without one. */
  discount: number;
  /** The end of a first-time trial's free days the change is made in (trials/), else null. */
  trialEndsAt: Date | null;
}

/**
 * The one place a plan change is priced: `changePlan` charges what it says, and the preview
 * (`GET …/plan-change/preview`) shows it before the listener confirms. Refuses what the change
 * refuses, with the same answers.
 */
export async function quotePlanChange(
  deps: Pick<Deps, 'db' | 'clock'>,
  userId: string,
  subscriptionId: string,
  merchantCode: string,
): Promise<PlanChangeQuote> {
  const now = deps.clock.now();
  const subscription = await ownedSubscription(deps, userId, subscriptionId);
  if (subscription.source_type !== 'Web' || subscription.end_date <= now) {
    throw conflict(
      'Only a current plan bought on this site can be changed.',
      API_ERROR_CODES.planNotChangeable,
    );
  }
  const target = await findPlanByCode(deps, merchantCode);
  if (!target) throw badRequest(`There is no plan with the code ${merchantCode}.`, 'MerchantCode');
  if (target.currency !== PAYMENT_CURRENCY || !(PREMIUM_OFFERS as readonly string[]).includes(target.offer)) {
    throw badRequest('This plan is not sold on the site.', 'MerchantCode');
  }
  // In a trial's free days nothing is charged now: the new plan is free to the same end (decision 0045).
  const trial = await trialEndingAt(deps.db, subscription.id, subscription.end_date);
  const trialEndsAt = trial ? subscription.end_date : null;
  const quote = {
    subscription,
    target,
    currency: target.currency,
    amount: 0,
    invoiceKey: null,
    discount: 0,
    trialEndsAt,
  };
  if (target.id === subscription.package_id) {
    // Choosing the current plan again withdraws a waiting downgrade.
    if (subscription.next_package_id === null)
      throw badRequest('You are already on this plan.', 'MerchantCode');
    return { ...quote, kind: 'keep', startsAt: subscription.end_date };
  }
  if (monthly(target) <= monthly(subscription)) {
    return { ...quote, kind: 'downgrade', startsAt: subscription.end_date };
  }
  const invoiceKey = `change:${subscriptionId}:${subscription.end_date.toISOString()}:${target.merchant_code}`;
  if (trialEndsAt) return { ...quote, kind: 'upgrade', startsAt: now, invoiceKey };
  // An upgrade asked for before keeps the amount its invoice was made with.
  const open = await deps.db
    .selectFrom('payment_invoices')
    .select(['amount', 'discount'])
    .where('idempotency_key', '=', invoiceKey)
    .executeTakeFirst();
  const periodStart = addMonths(subscription.end_date, -subscription.duration_months);
  const period = { start: periodStart, end: subscription.end_date };
  const full = proratedDifference(subscription, target, period, now);
  // Within a period of the subscription's offer, both plans are priced with it.
  const price = await periodPrices(deps.db, subscription);
  const current = { id: subscription.package_id, cost: subscription.cost };
  const offered = proratedDifference({ cost: price(current) }, { cost: price(target) }, period, now);
  const amount = open?.amount ?? offered;
  const discount = open?.discount ?? Math.max(0, full - offered);
  return { ...quote, kind: 'upgrade', amount, discount, startsAt: now, invoiceKey };
}
