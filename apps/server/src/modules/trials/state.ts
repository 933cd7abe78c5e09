import { MERCHANT_ID } from '@tunes/shared/constants';
import { plansForSale } from '@tunes/shared/premium-rules';
import { type DashboardTrials, type TrialMethod, type TrialOffer, trialEnd } from '@tunes/shared/trials';
import { type Expression, type Kysely, type QueryCreator, sql } from 'kysely';
import type { Database } from '../../db/schema.js';
import type { Deps } from '../../deps.js';
import { refusalOf } from './claims.js';
import { listener } from './start.js';
import './tables.js';

/** `GET /api/premium/trial`: whether the listener may start one, and the plans on sale with one. */
export async function trialOffer(deps: Pick<Deps, 'db' | 'clock'>, userId: string): Promise<TrialOffer> {
  const user = await listener(deps.db, userId, false);
  const now = deps.clock.now();
  const reason = await refusalOf(deps.db, user, now);
  const rows = await deps.db
    .selectFrom('packages')
    .select(['merchant_code', 'offer', 'currency', 'cost', 'trial_days'])
    .where('merchant_id', '=', MERCHANT_ID)
    .where('is_active', '=', true)
    .where('trial_days', '>', 0)
    .orderBy('sort_order')
    .orderBy('id')
    .execute();
  const plans = plansForSale(
    rows.map((row) => ({
      MerchantCode: row.merchant_code,
      TrialDays: row.trial_days,
      Cost: row.cost,
      Currency: row.currency,
      Offer: row.offer,
      OriginalCost: null,
    })),
  ).map(({ MerchantCode, TrialDays, Cost }) => ({
    MerchantCode,
    TrialDays,
    Cost,
    EndsAt: trialEnd(now, TrialDays).toISOString(),
  }));
  return reason ? { eligible: false, reason, plans } : { eligible: true, plans };
}

/** A renewal invoice that was paid (whatever was refunded of it later): the trial converted. */
const PAID = ['paid', 'partly_refunded', 'refunded'] as const;

/**
 * The trial whose free days are the period of `subscriptionId` ending at `endDate`, if that period
 * is one: its reminder, the profile, a plan change and a pause say so (billing/). The free days
 * last until the subscription's first paid renewal, wherever its end has moved meanwhile (an
 * operator's extension); once a renewal is paid the trial is over (converted). A subquery, so a
 * read of the subscription can carry it (the renewal reminder's).
 */
export function trialEndingWith(
  db: QueryCreator<Database>,
  subscriptionId: Expression<string> | string,
  endDate: Expression<Date> | Date,
) {
  return db
    .selectFrom('trials as t')
    .select('t.method')
    .where('t.subscription_id', '=', subscriptionId)
    .where('t.status', '=', 'started')
    .where((eb) =>
      eb.not(
        eb.exists(
          eb
            .selectFrom('payment_invoices as i')
            .select('i.invoice_id')
            .whereRef('i.subscription_id', '=', 't.subscription_id')
            .where('i.kind', '=', 'renewal')
            .where('i.status', 'in', PAID)
            .where('i.period_start', '<', endDate),
        ),
      ),
    );
}

/** {@link trialEndingWith}, read on its own. */
export async function trialEndingAt(
  db: Kysely<Database>,
  subscriptionId: string,
  endDate: Date,
): Promise<{ method: TrialMethod } | undefined> {
  return trialEndingWith(db, subscriptionId, endDate).executeTakeFirst();
}

/**
 * The dashboard's trials for [from, until): begun in it; converted in it (the trial's
 * subscription's first renewal paid, whatever was refunded of it later, for whatever period it
 * was made: the free days' end moves with an extension); and begun in it and cancelled within the
 * free days (auto-renew off before the end, no renewal ever paid).
 */
export async function trialCounts(db: Kysely<Database>, from: Date, until: Date): Promise<DashboardTrials> {
  const paid = sql.join(PAID.map((status) => sql.lit(status)));
  const { rows } = await sql<{ started: string; converted: string; cancelled: string }>`
    select
      (select count(*) from trials where started_at >= ${from} and started_at < ${until}) as started,
      (select count(*) from (select (select min(i.settled_at) from payment_invoices i
          where i.subscription_id = t.subscription_id and i.kind = 'renewal' and i.status in (${paid})
        ) as first_paid from trials t where t.status = 'started') c
        where c.first_paid >= ${from} and c.first_paid < ${until}) as converted,
      (select count(*) from trials t join subscriptions s on s.id = t.subscription_id
        where t.started_at >= ${from} and t.started_at < ${until}
          and s.is_auto_renew = false and s.cancelled_at is not null and s.cancelled_at < s.end_date
          and not exists (select 1 from payment_invoices i where i.subscription_id = s.id
            and i.kind = 'renewal' and i.status in (${paid}))) as cancelled`.execute(db);
  const row = rows[0];
  return {
    started: Number(row?.started ?? 0),
    converted: Number(row?.converted ?? 0),
    cancelled: Number(row?.cancelled ?? 0),
  };
}
