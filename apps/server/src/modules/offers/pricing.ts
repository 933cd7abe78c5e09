import { OFFER_MIN_AMOUNT, offerDiscount } from '@tunes/shared/offers';
import { type Expression, type Kysely, sql } from 'kysely';
import type { Database } from '../../db/schema.js';
import './tables.js';

/**
 * How an offer prices a renewal, in SQL, so the renewal invoice is written in its one statement
 * (billing/renewal-invoice.ts): the subscription's active redemption with periods left, on a
 * plan the offer covers. Same rule as `offerDiscount` (@tunes/shared/offers): a percent rounds
 * down, never below OFFER_MIN_AMOUNT.
 */
interface RenewalRefs {
  subscriptionId: Expression<string> | string;
  packageId: Expression<number> | number;
  cost: Expression<number> | number;
}

const redemptionWithPeriodsLeft = (refs: RenewalRefs) => sql`
  from offer_redemptions r join offers o on o.id = r.offer_id
  where r.subscription_id = ${refs.subscriptionId}::uuid and r.status = 'active'
    and r.periods_used < o.periods
    and (o.package_ids is null or ${refs.packageId}::integer = any(o.package_ids))
  limit 1`;

/** What the subscription's offer takes off its next period's `cost` (0 without one). */
export function offerRenewalDiscount(refs: RenewalRefs) {
  // `cost` may be a subquery (the reminder's price-notice look-up): evaluated once, used twice.
  return sql<number>`coalesce((
    select least(
      case when o.kind = 'percent' then (c.cost * o.value) / 100 else o.value end,
      greatest(0, c.cost - ${sql.lit(OFFER_MIN_AMOUNT)}))
    from (select ${refs.cost}::integer as cost) c,
      (select o.kind, o.value ${redemptionWithPeriodsLeft(refs)}) o), 0)`;
}

/** The redemption that prices the next period, or null. */
export function offerRenewalRedemption(refs: RenewalRefs) {
  return sql<string | null>`(select r.id ${redemptionWithPeriodsLeft(refs)})`;
}

/** The offer a subscription was bought with (active redemption), for the profile and plan changes. */
export function subscriptionOffer(db: Kysely<Database>, subscriptionId: string) {
  return db
    .selectFrom('offer_redemptions as r')
    .innerJoin('offers as o', 'o.id', 'r.offer_id')
    .select([
      'r.id',
      'r.periods_used',
      'r.discounted_until',
      'o.code',
      'o.kind',
      'o.value',
      'o.periods',
      'o.package_ids',
    ])
    .where('r.subscription_id', '=', subscriptionId)
    .where('r.status', '=', 'active')
    .executeTakeFirst();
}
export type SubscriptionOffer = NonNullable<Awaited<ReturnType<typeof subscriptionOffer>>>;

export const coversPlan = (offer: { package_ids: number[] | null }, packageId: number) =>
  offer.package_ids === null || offer.package_ids.includes(packageId);

/**
 * What each plan costs within the subscription's current period for a plan change: with the
 * offer's discount when that period was one of its periods (`discounted_until`) and the offer
 * covers the plan, so the prorated difference of an upgrade is the discounted one.
 */
export async function periodPrices(db: Kysely<Database>, subscription: { id: string; end_date: Date }) {
  const offer = await subscriptionOffer(db, subscription.id);
  const inOffer =
    offer?.discounted_until != null && offer.discounted_until.getTime() >= subscription.end_date.getTime();
  return (plan: { id: number; cost: number }) =>
    offer && inOffer && coversPlan(offer, plan.id) ? plan.cost - offerDiscount(plan.cost, offer) : plan.cost;
}
