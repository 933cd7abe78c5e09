import type { ConsolePlan } from '@tunes/shared/catalog';
import { MERCHANT_ID } from '@tunes/shared/constants';
import { plansForSale } from '@tunes/shared/premium-rules';
import type { Deps } from '../../deps.js';
import { renewsOn } from '../prices/price-schedule.js';
import '../prices/tables.js';

/** Every plan of the merchant, in /premium's order, with its subscribers and a running price notice. */
export async function listConsolePlans(deps: Pick<Deps, 'db' | 'clock'>): Promise<ConsolePlan[]> {
  const now = deps.clock.now();
  const rows = await deps.db
    .selectFrom('packages as p')
    .selectAll('p')
    .select((eb) => [
      eb
        .selectFrom('subscriptions as s')
        .select((c) => c.fn.countAll<number>().as('n'))
        .where(renewsOn(eb.ref('p.id')))
        .where('s.is_auto_renew', '=', true)
        .where((w) => w.or([w('s.end_date', '>', now), w('s.grace_until', '>', now)]))
        .as('subscribers'),
    ])
    .where('p.merchant_id', '=', MERCHANT_ID)
    .orderBy('p.sort_order')
    .orderBy('p.id')
    .execute();
  const pending = await deps.db
    .selectFrom('plan_price_changes as c')
    .select((eb) => [
      'c.package_id',
      'c.previous_cost',
      'c.cost',
      'c.changed_at',
      'c.takes_effect_at',
      eb
        .selectFrom('price_notices as n')
        .select((n) => n.fn.countAll<number>().as('n'))
        .whereRef('n.price_change_id', '=', 'c.id')
        .as('notices'),
    ])
    .where('c.takes_effect_at', '>', now)
    .orderBy('c.id', 'desc')
    .execute();
  return rows.map((row) => {
    const change = pending.find((found) => found.package_id === row.id);
    const listed =
      row.is_active &&
      plansForSale([{ Currency: row.currency, Offer: row.offer, Cost: row.cost, OriginalCost: null }])
        .length === 1;
    return {
      code: row.merchant_code,
      offer: row.offer,
      name: { en: row.name_en, mn: row.name_mn },
      price: row.cost,
      originalPrice: row.original_cost,
      currency: row.currency,
      months: row.duration_months,
      seats: row.max_shared_users + 1,
      onSale: row.is_active,
      listed,
      badge: row.badge_en && row.badge_mn ? { en: row.badge_en, mn: row.badge_mn } : null,
      trialDays: row.trial_days,
      order: row.sort_order,
      subscribers: Number(row.subscribers ?? 0),
      pendingPrice: change
        ? {
            previous: change.previous_cost,
            price: change.cost,
            changedAt: change.changed_at.toISOString(),
            takesEffectAt: change.takes_effect_at.toISOString(),
            notices: Number(change.notices ?? 0),
          }
        : null,
    };
  });
}
