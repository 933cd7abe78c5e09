import { DAY_MS } from '@tunes/shared/constants';
import { sql } from 'kysely';
import type { Deps } from '../../deps.js';
import { SERVICE_TIME_ZONE, serviceDay, serviceDayStart } from '../../lib/service-day.js';
import { revenueByPlanAndOffer } from '../offers/revenue.js';
import { trialCounts } from '../trials/state.js';
import './tables.js';

/**
 * The dashboard's figures for the last `days` days of Ulaanbaatar's calendar (today included; the
 * service's day, lib/service-day.ts): active subscriptions by
 * plan now, new and lapsed subscriptions per day, and revenue per day by method net of refunds.
 * A few grouped SQL queries; nothing is kept in memory between calls.
 */
export async function dashboard(deps: Pick<Deps, 'db' | 'clock'>, days: number) {
  const { db } = deps;
  const now = deps.clock.now();
  // Ulaanbaatar keeps no daylight saving, so every service day is 24 hours long.
  const today = serviceDayStart(serviceDay(now));
  const from = new Date(today.getTime() - (days - 1) * DAY_MS);
  const until = new Date(today.getTime() + DAY_MS);

  const active = await db
    .selectFrom('subscriptions as s')
    .innerJoin('packages as p', 'p.id', 's.package_id')
    .select((eb) => ['p.merchant_code', 'p.name_en', eb.fn.countAll<string>().as('count')])
    .where('s.start_date', '<=', now)
    .where((eb) => eb.or([eb('s.end_date', '>', now), eb('s.grace_until', '>', now)]))
    .groupBy(['p.merchant_code', 'p.name_en'])
    .orderBy('p.merchant_code')
    .execute();

  const dayOf = (column: string) =>
    sql<string>`to_char(${sql.ref(column)} at time zone ${sql.lit(SERVICE_TIME_ZONE)}, 'YYYY-MM-DD')`;
  const started = await db
    .selectFrom('subscriptions')
    .select((eb) => [dayOf('start_date').as('day'), eb.fn.countAll<string>().as('count')])
    .where('start_date', '>=', from)
    .where('start_date', '<', until)
    .groupBy(sql`1`)
    .execute();
  // Lapsed: a period that ended within the range and was not followed by a renewal of itself
  // (a renewed subscription's end date moves forward, so it does not end here).
  const lapsed = await db
    .selectFrom('subscriptions')
    .select((eb) => [dayOf('end_date').as('day'), eb.fn.countAll<string>().as('count')])
    .where('end_date', '>=', from)
    .where('end_date', '<', until)
    .where('end_date', '<=', now)
    .where((eb) => eb.or([eb('grace_until', 'is', null), eb('grace_until', '<=', now)]))
    .groupBy(sql`1`)
    .execute();
  const revenue = await db
    .selectFrom('payment_invoices as i')
    // Less what was given back of the captures that paid it (the ledger's refunds).
    .leftJoinLateral(
      (eb) =>
        eb
          .selectFrom('payment_ledger as r')
          .innerJoin('payment_ledger as c', 'c.id', 'r.refund_of')
          .select((r) => r.fn.sum<string>('r.amount').as('amount'))
          .whereRef('c.invoice_id', '=', 'i.invoice_id')
          .where('c.outcome', '=', 'applied')
          .where('r.entry', '=', 'refund')
          .as('r'),
      (join) => join.onTrue(),
    )
    .select([
      dayOf('i.settled_at').as('day'),
      'i.method',
      'i.currency',
      sql<string>`sum(i.amount - coalesce(r.amount, 0))`.as('amount'),
    ])
    .where('i.status', 'in', ['paid', 'partly_refunded'])
    .where('i.settled_at', '>=', from)
    .where('i.settled_at', '<', until)
    .groupBy([sql`1`, 'i.method', 'i.currency'])
    .orderBy(sql`1`)
    .orderBy('i.method')
    .execute();

  const counts = (rows: { day: string; count: string }[]) =>
    new Map(rows.map((row) => [row.day, Number(row.count)]));
  const newByDay = counts(started);
  const lapsedByDay = counts(lapsed);
  const daily = Array.from({ length: days }, (_, index) => {
    const date = serviceDay(new Date(from.getTime() + index * DAY_MS));
    return { date, new: newByDay.get(date) ?? 0, lapsed: lapsedByDay.get(date) ?? 0 };
  });
  return {
    days,
    from: serviceDay(from),
    to: serviceDay(today),
    activeByPlan: active.map((row) => ({
      packageCode: row.merchant_code,
      packageName: row.name_en,
      count: Number(row.count),
    })),
    daily,
    revenue: revenue.map((row) => ({
      date: row.day,
      method: row.method,
      currency: row.currency,
      amount: Number(row.amount),
    })),
    // Captured less refunded in the period, by plan and by offer (offers/revenue.ts).
    ...(await revenueByPlanAndOffer(db, from, until)),
    // First-time trials begun, converted (first renewal paid) and cancelled in the period.
    trials: await trialCounts(db, from, until),
  };
}
