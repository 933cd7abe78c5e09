import type { Pause, PauseState } from '@tunes/shared/billing';
import type { ColumnType, Kysely } from 'kysely';
import type { Database } from '../../db/schema.js';
import type { Deps } from '../../deps.js';
import { conflict } from '../../lib/errors.js';
import type { ErrorLog } from '../../lib/logging.js';
import { notifyOnce } from '../premium/notices.js';
import { addMonths } from '../premium/period.js';
import { ownedSubscription } from '../subscriptions/owned-subscription.js';
import { inTrial, refusePauseInTrial } from '../trials/crossings.js';
import { pauseMessages, planNameOf } from './pause-messages.js';
import { chosenRenewalMethod } from './pay-renewals-by.js';
import { runRenewalStep } from './renewal.js';
import type { RenewalDeps } from './renewal-claim.js';
import '../premium/tables.js';

export interface SubscriptionPausesTable {
  subscription_id: string;
  starts_at: ColumnType<Date, Date | string, Date | string>;
  resumes_at: ColumnType<Date, Date | string, Date | string>;
  months: number;
  status: ColumnType<
    'scheduled' | 'ended' | 'withdrawn',
    'scheduled' | undefined,
    'scheduled' | 'ended' | 'withdrawn'
  >;
  created_at: ColumnType<Date, Date | string, Date | string>;
  ended_at: ColumnType<Date | null, Date | string | null | undefined, Date | string | null>;
  reminded_at: ColumnType<Date | null, Date | string | null | undefined, Date | string | null>;
}

declare module '../../db/schema.js' {
  interface Database {
    subscription_pauses: SubscriptionPausesTable;
  }
}

/**
 * A pause in force: scheduled, and its subscription still waits for it (the period ends where the
 * pause starts and the next charge is the resumption). A pause whose plan moved on is stale.
 */
function livePauses(db: Kysely<Database>) {
  return db
    .selectFrom('subscription_pauses as z')
    .innerJoin('subscriptions as s', 's.id', 'z.subscription_id')
    .innerJoin('packages as p', (join) =>
      join.on((eb) => eb('p.id', '=', eb.fn.coalesce('s.next_package_id', 's.package_id'))),
    )
    .select([
      'z.subscription_id',
      'z.months',
      'z.starts_at',
      'z.resumes_at',
      's.owner_id',
      'p.cost',
      'p.currency',
    ])
    .select((eb) =>
      eb
        .selectFrom('subscription_members as m')
        .select((inner) => inner.fn.countAll<string>().as('n'))
        .whereRef('m.subscription_id', '=', 's.id')
        .as('members'),
    )
    .where('z.status', '=', 'scheduled')
    .whereRef('s.end_date', '=', 'z.starts_at')
    .whereRef('s.next_billing_at', '=', 'z.resumes_at')
    .where('s.is_auto_renew', '=', true);
}

const pauseView = (
  row: {
    subscription_id: string;
    months: number;
    starts_at: Date;
    resumes_at: Date;
    members: string | number | null;
    cost: number;
    currency: string;
  },
  now: Date,
): Pause => ({
  subscriptionId: row.subscription_id,
  months: row.months,
  startsAt: row.starts_at.toISOString(),
  resumesAt: row.resumes_at.toISOString(),
  started: now >= row.starts_at,
  members: Number(row.members ?? 0),
  amount: row.cost,
  currency: row.currency,
});

/** `GET /api/users/me/pause`: the listener's pause, or whether their plan may be paused now. */
export async function pauseState(deps: Pick<Deps, 'db' | 'clock'>, userId: string): Promise<PauseState> {
  const now = deps.clock.now();
  const live = await livePauses(deps.db).where('s.owner_id', '=', userId).executeTakeFirst();
  if (live) {
    const pause = pauseView(live, now);
    return {
      pause,
      unavailable: 'paused',
      subscriptionId: live.subscription_id,
      endDate: pause.startsAt,
      members: pause.members,
    };
  }
  const plan = await deps.db
    .selectFrom('subscriptions as s')
    .select(['s.id', 's.end_date', 's.is_auto_renew', 's.renewal_attempts'])
    .select((eb) =>
      eb
        .selectFrom('subscription_members as m')
        .select((inner) => inner.fn.countAll<string>().as('n'))
        .whereRef('m.subscription_id', '=', 's.id')
        .as('members'),
    )
    .where('s.owner_id', '=', userId)
    .where('s.source_type', '=', 'Web')
    .where((eb) => eb.or([eb('s.end_date', '>', now), eb('s.grace_until', '>', now)]))
    .orderBy('s.end_date', 'desc')
    .executeTakeFirst();
  if (!plan) return { pause: null, unavailable: 'no_plan', subscriptionId: null, endDate: null, members: 0 };
  const base = {
    pause: null,
    subscriptionId: plan.id,
    endDate: plan.end_date.toISOString(),
    members: Number(plan.members ?? 0),
  };
  if (plan.renewal_attempts > 0) return { ...base, unavailable: 'renewal_pending' };
  if (!plan.is_auto_renew) return { ...base, unavailable: 'not_renewing' };
  if (await inTrial(deps.db, plan)) return { ...base, unavailable: 'trial' };
  if (!(await renewsByCard(deps, userId))) return { ...base, unavailable: 'needs_card' };
  return { ...base, unavailable: null };
}

async function renewsByCard(deps: Pick<Deps, 'db'>, userId: string): Promise<boolean> {
  const card = await deps.db
    .selectFrom('saved_cards')
    .select('user_id')
    .where('user_id', '=', userId)
    .executeTakeFirst();
  return Boolean(card) && (await chosenRenewalMethod(deps, userId)) === 'card';
}

/**
 * `POST /api/subscriptions/{id}/pause` `{ months }` (issue 37, YouTube's offer): Premium runs to
 * the end of the paid period, then pauses for 1–3 months for the owner and every member; the
 * renewal moves by that span and the card is charged on the resumption day. One pause at a time:
 * the subscription's row is held and the scheduled charge moves only if it is still the end date
 * (not claimed by a renewal run), so of pauses at once one is made and a renewal under way wins.
 */
export async function pausePremium(
  deps: Pick<Deps, 'db' | 'clock' | 'config'>,
  userId: string,
  subscriptionId: string,
  months: 1 | 2 | 3,
  log?: ErrorLog,
): Promise<Pause> {
  await ownedSubscription(deps, userId, subscriptionId);
  const now = deps.clock.now();
  const pause = await deps.db.transaction().execute(async (trx) => {
    const s = await trx
      .selectFrom('subscriptions')
      .select(['id', 'end_date', 'next_billing_at', 'is_auto_renew', 'renewal_attempts', 'source_type'])
      .where('id', '=', subscriptionId)
      .forUpdate()
      .executeTakeFirstOrThrow();
    if (s.renewal_attempts > 0)
      throw conflict('Pay the renewal first; then the plan can be paused.', 'renewal_pending');
    if (s.source_type !== 'Web' || s.end_date <= now)
      throw conflict('Only a current plan bought here can be paused.', 'plan_not_pausable');
    if (!s.is_auto_renew) throw conflict('A plan that does not renew has nothing to pause.', 'not_renewing');
    await refusePauseInTrial(trx, s);
    if (!(await renewsByCard({ db: trx }, userId)))
      throw conflict('A pause ends with a charge to the card on file.', 'needs_card');
    if (s.next_billing_at?.getTime() !== s.end_date.getTime())
      throw conflict('This plan is paused already or renewing now.', 'already_paused');
    const resumesAt = addMonths(s.end_date, months);
    await trx
      .insertInto('subscription_pauses')
      .values({
        subscription_id: s.id,
        starts_at: s.end_date,
        resumes_at: resumesAt,
        months,
        created_at: now,
      })
      // A withdrawn pause of this period is replaced by the new choice.
      .onConflict((oc) =>
        oc.columns(['subscription_id', 'starts_at']).doUpdateSet({
          resumes_at: resumesAt,
          months,
          status: 'scheduled',
          created_at: now,
          ended_at: null,
          reminded_at: null,
        }),
      )
      .execute();
    // The renewal waits for the resumption; the end date's reminder is not sent (it is paused).
    await trx
      .updateTable('subscriptions')
      .set({ next_billing_at: resumesAt, reminded_for: s.end_date, updated_at: now })
      .where('id', '=', s.id)
      .execute();
    return livePauses(trx).where('z.subscription_id', '=', s.id).executeTakeFirstOrThrow();
  });
  const view = pauseView(pause, now);
  const plan = await planNameOf(deps.db, subscriptionId);
  await notifyOnce(
    deps,
    {
      key: `pause:${subscriptionId}:${view.startsAt}:${now.toISOString()}`,
      userId,
      text: (lang) => pauseMessages.paused(lang, plan(lang), view),
    },
    log,
  );
  return view;
}

/**
 * `DELETE /api/subscriptions/{id}/pause`: resume early. Before the pause begins it is withdrawn
 * (the renewal is on the end date again); during it, the paused span ends now and the card is
 * charged at once for a period from today.
 */
export async function resumePremium(
  deps: RenewalDeps,
  userId: string,
  subscriptionId: string,
  log?: ErrorLog,
) {
  await ownedSubscription(deps, userId, subscriptionId);
  const now = deps.clock.now();
  const started = await deps.db.transaction().execute(async (trx) => {
    await trx.selectFrom('subscriptions').select('id').where('id', '=', subscriptionId).forUpdate().execute();
    const live = await livePauses(trx).where('z.subscription_id', '=', subscriptionId).executeTakeFirst();
    if (!live) throw conflict('This plan is not paused.', 'not_paused');
    const begun = now >= live.starts_at;
    await trx
      .updateTable('subscription_pauses')
      .set({ status: begun ? 'ended' : 'withdrawn', ended_at: now })
      .where('subscription_id', '=', subscriptionId)
      .where('starts_at', '=', live.starts_at)
      .execute();
    await trx
      .updateTable('subscriptions')
      .set(
        begun
          ? { end_date: now, next_billing_at: now, reminded_for: now, updated_at: now }
          : { next_billing_at: live.starts_at, reminded_for: null, updated_at: now },
      )
      .where('id', '=', subscriptionId)
      .execute();
    return begun;
  });
  // During the pause: the renewal is charged now, not at the next job run.
  const outcome = started ? await runRenewalStep(deps, subscriptionId, log) : 'withdrawn';
  return { outcome };
}
