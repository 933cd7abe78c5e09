import { REMINDER_DAYS_BEFORE } from '@tunes/shared/billing';
import { DAY_MS } from '@tunes/shared/constants';
import { sql } from 'kysely';
import type { Deps } from '../../deps.js';
import type { JobKind, JobQueue } from '../../lib/job-queue.js';
import type { ErrorLog } from '../../lib/logging.js';
import { notifyOnce } from '../premium/notices.js';
import { pauseMessages, planNameOf } from './pause-messages.js';
import './pause.js';

/**
 * The resumption (before each job scan): a pause whose day has come ends, and its subscription's
 * period boundary moves to the resumption day, so the renewal run (billing.renew, in the same
 * scan) charges the card for a period from that day. A stale pause (its plan moved on: cancelled,
 * resumed early, renewed) just ends. One statement moves a pause once whatever runs at once.
 */
export async function resumeDuePauses(deps: Pick<Deps, 'db'>, now: Date): Promise<number> {
  // An owner who bought Premium again during the pause has it: the paused plan ends uncharged.
  await sql`
    update subscriptions s set is_auto_renew = false, next_billing_at = null, updated_at = ${now}
    from subscription_pauses z
    where z.subscription_id = s.id and z.status = 'scheduled' and z.resumes_at <= ${now}
      and s.end_date = z.starts_at and s.next_billing_at = z.resumes_at
      and exists (select 1 from subscriptions o
        where o.owner_id = s.owner_id and o.id <> s.id and o.end_date > ${now})`.execute(deps.db);
  return deps.db.transaction().execute(async (trx) => {
    // The plans first, then their pauses: the order a pause or an early resume takes them
    // (pause.ts), so on the resumption day they wait for each other rather than deadlock.
    const { rows: plans } = await sql<{ id: string }>`
      select s.id from subscriptions s
      where exists (select 1 from subscription_pauses z
        where z.subscription_id = s.id and z.status = 'scheduled' and z.resumes_at <= ${now})
      order by s.id
      for update`.execute(trx);
    if (plans.length === 0) return 0;
    const { rows } = await sql<{ subscription_id: string }>`
      with due as (
        update subscription_pauses set status = 'ended', ended_at = ${now}
        where status = 'scheduled' and resumes_at <= ${now}
          and subscription_id in (${sql.join(plans.map((plan) => plan.id))})
        returning subscription_id, starts_at, resumes_at
      )
      update subscriptions s set end_date = due.resumes_at, updated_at = ${now}
      from due
      where s.id = due.subscription_id and s.end_date = due.starts_at
        and s.next_billing_at = due.resumes_at and s.is_auto_renew
      returning s.id as subscription_id`.execute(trx);
    return rows.length;
  });
}

/** The message 3 days before a pause ends (issue 37), once per pause. */
function pauseEndingKind(deps: Pick<Deps, 'db' | 'clock' | 'config'>): JobKind {
  return {
    name: 'billing.pause-ending',
    findDue: async (now, limit, after) => {
      let query = deps.db
        .selectFrom('subscription_pauses')
        .select('subscription_id')
        .where('status', '=', 'scheduled')
        .where('reminded_at', 'is', null)
        .where('resumes_at', '>', now)
        .where('resumes_at', '<=', reminderEdge(now))
        .orderBy('subscription_id')
        .limit(limit);
      if (after) query = query.where('subscription_id', '>', after);
      return (await query.execute()).map((row) => row.subscription_id);
    },
    run: (key, log) => remindPauseEnding(deps, key, log),
  };
}

const reminderEdge = (now: Date) => new Date(now.getTime() + REMINDER_DAYS_BEFORE * DAY_MS);

async function remindPauseEnding(
  deps: Pick<Deps, 'db' | 'clock' | 'config'>,
  subscriptionId: string,
  log: ErrorLog,
) {
  const now = deps.clock.now();
  const claimed = await deps.db
    .updateTable('subscription_pauses as z')
    .set({ reminded_at: now })
    .from('subscriptions as s')
    .whereRef('s.id', '=', 'z.subscription_id')
    .where('z.subscription_id', '=', subscriptionId)
    .where('z.status', '=', 'scheduled')
    .where('z.resumes_at', '>', now)
    .where('z.resumes_at', '<=', reminderEdge(now))
    .where('z.reminded_at', 'is', null)
    .returning(['z.months', 'z.starts_at', 'z.resumes_at', 's.owner_id'])
    .executeTakeFirst();
  if (!claimed) return false;
  const cost = await deps.db
    .selectFrom('subscriptions as s')
    .innerJoin('packages as p', (join) =>
      join.on((eb) => eb('p.id', '=', eb.fn.coalesce('s.next_package_id', 's.package_id'))),
    )
    .select(['p.cost', 'p.currency'])
    .where('s.id', '=', subscriptionId)
    .executeTakeFirstOrThrow();
  const plan = await planNameOf(deps.db, subscriptionId);
  const facts = {
    months: claimed.months,
    startsAt: claimed.starts_at.toISOString(),
    resumesAt: claimed.resumes_at.toISOString(),
    members: 0,
    amount: cost.cost,
    currency: cost.currency,
  };
  return notifyOnce(
    deps,
    {
      key: `pause-ending:${subscriptionId}:${facts.startsAt}`,
      userId: claimed.owner_id,
      text: (lang) => pauseMessages.resuming(lang, plan(lang), facts),
    },
    log,
  );
}

/** The pause's work on the job queue: the resumption before each scan, the message before it. */
export function registerPauseJobs(queue: JobQueue, deps: Deps): void {
  queue.register(pauseEndingKind(deps));
  queue.beforeScan((now) => resumeDuePauses(deps, now));
}
