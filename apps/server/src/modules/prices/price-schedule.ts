import { PRICE_NOTICE_DAYS } from '@tunes/shared/catalog';
import { DAY_MS } from '@tunes/shared/constants';
import { type Expression, type Kysely, sql } from 'kysely';
import type { Database } from '../../db/schema.js';
import { addMonths } from '../premium/period.js';
import './tables.js';

/**
 * A price change with notice (product.md §1 "30-day notice of price changes", decision 0038): a
 * plan's new price is what new sales pay at once; a current subscriber keeps the price they
 * pay until their first renewal at least 30 days after the change. The rise reaches each
 * current subscription as a notice row written in the change's own transaction; the renewal's
 * price is then a plain read (`renewalCost`), the same whichever process or job asks, and
 * whenever. A cut in price needs no notice: everybody pays the lower price at once.
 */

type Db = Kysely<Database>;

export interface PriceChange {
  id: number;
  previousCost: number;
  cost: number;
  changedAt: Date;
  takesEffectAt: Date;
  /** Current subscriptions given notice (a rise only). */
  notices: number;
}

/**
 * Records a plan's new price inside the caller's transaction, which has set `packages.cost`
 * to `cost` (or does so in it). A rise writes a notice for every current subscription that
 * renews on the plan (bought here, or a downgrade waiting to start on it).
 */
export async function schedulePriceChange(
  trx: Db,
  now: Date,
  change: { packageId: number; previousCost: number; cost: number; operatorId: string | null },
): Promise<PriceChange> {
  const takesEffectAt = new Date(now.getTime() + PRICE_NOTICE_DAYS * DAY_MS);
  const row = await trx
    .insertInto('plan_price_changes')
    .values({
      package_id: change.packageId,
      previous_cost: change.previousCost,
      cost: change.cost,
      changed_at: now,
      takes_effect_at: takesEffectAt,
      operator_id: change.operatorId,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  let notices = 0;
  if (change.cost > change.previousCost) {
    const written = await trx
      .insertInto('price_notices')
      .columns([
        'subscription_id',
        'price_change_id',
        'package_id',
        'previous_cost',
        'cost',
        'takes_effect_at',
      ])
      .expression((eb) =>
        eb
          .selectFrom('subscriptions as s')
          .select((s) => [
            's.id',
            s.val(row.id).as('price_change_id'),
            s.val(change.packageId).as('package_id'),
            s.val(change.previousCost).as('previous_cost'),
            s.val(change.cost).as('cost'),
            s.val(takesEffectAt).as('takes_effect_at'),
          ])
          .where('s.source_type', '=', 'Web')
          .where(renewsOn(change.packageId))
          .where((w) => w.or([w('s.end_date', '>', now), w('s.grace_until', '>', now)])),
      )
      .returning('subscription_id')
      .execute();
    notices = written.length;
  }
  return {
    id: row.id,
    previousCost: change.previousCost,
    cost: change.cost,
    changedAt: now,
    takesEffectAt,
    notices,
  };
}

/** A subscription whose next period is on the plan: on it with no downgrade waiting, or downgrading to it. */
export function renewsOn(packageId: number | Expression<number>) {
  return sql<boolean>`coalesce(s.next_package_id, s.package_id) = ${packageId}`;
}

/**
 * What a subscription's period starting at `periodStart` costs on `packageId`, whose price for
 * new sales is `cost`: the price before the earliest rise that has not reached it by then (its
 * notice still running at `periodStart`), or `cost` when every rise has (or a cut went below).
 */
export async function renewalCost(
  db: Db,
  args: { subscriptionId: string; packageId: number; periodStart: Date; cost: number },
): Promise<number> {
  const kept = await db
    .selectFrom('price_notices')
    .select('previous_cost')
    .where('subscription_id', '=', args.subscriptionId)
    .where('package_id', '=', args.packageId)
    .where('takes_effect_at', '>', args.periodStart)
    .orderBy('takes_effect_at')
    .limit(1)
    .executeTakeFirst();
  return kept ? Math.min(kept.previous_cost, args.cost) : args.cost;
}

/** The first renewal (the period end, or one a whole number of periods later) on or after `at`. */
export function firstRenewalFrom(endDate: Date, months: number, at: Date): Date {
  let renewal = endDate;
  for (let periods = 1; renewal < at && periods <= 400; periods++) {
    renewal = addMonths(endDate, periods * months);
  }
  return renewal;
}

export interface ComingPrice {
  amount: number;
  previousAmount: number;
  /** The first renewal at the new price. */
  from: Date;
}

/**
 * The price rise still ahead of a subscription (what /profile shows): the earliest notice on
 * the plan it renews on whose first renewal at the new price is not yet paid, or null.
 */
export async function comingPrice(
  db: Db,
  subscription: { id: string; packageId: number; endDate: Date; months: number; cost: number },
): Promise<ComingPrice | null> {
  const notices = await db
    .selectFrom('price_notices')
    .select(['previous_cost', 'takes_effect_at'])
    .where('subscription_id', '=', subscription.id)
    .where('package_id', '=', subscription.packageId)
    .orderBy('takes_effect_at')
    .execute();
  // Renewals already paid started on or before the current period's start.
  const currentStart = addMonths(subscription.endDate, -subscription.months);
  for (const notice of notices) {
    if (notice.takes_effect_at <= currentStart) continue;
    const from = firstRenewalFrom(subscription.endDate, subscription.months, notice.takes_effect_at);
    const amount = await renewalCost(db, {
      subscriptionId: subscription.id,
      packageId: subscription.packageId,
      periodStart: from,
      cost: subscription.cost,
    });
    if (amount <= notice.previous_cost) return null;
    return { amount, previousAmount: notice.previous_cost, from };
  }
  return null;
}

/**
 * `renewalCost` as a column of a query over a subscription and the plan it renews on (the
 * renewal step's own read, so charging pays no extra round trip).
 */
export function renewalCostOf(refs: {
  subscriptionId: Expression<string>;
  packageId: Expression<number>;
  periodStart: Expression<Date>;
  cost: Expression<number>;
}) {
  return sql<number>`least(${refs.cost}, coalesce((
    select n.previous_cost from price_notices n
    where n.subscription_id = ${refs.subscriptionId} and n.package_id = ${refs.packageId}
      and n.takes_effect_at > ${refs.periodStart}
    order by n.takes_effect_at limit 1), ${refs.cost}))`;
}
