import { PRICE_REMINDER_DAYS } from '@tunes/shared/catalog';
import { DAY_MS } from '@tunes/shared/constants';
import { type Expression, type ExpressionBuilder, type SqlBool, sql } from 'kysely';
import type { Database } from '../../db/schema.js';
import type { Deps } from '../../deps.js';
import type { JobKind, JobQueue } from '../../lib/job-queue.js';
import type { ErrorLog } from '../../lib/logging.js';
import { notifyOnce } from '../premium/notices.js';
import { priceMessages } from './price-messages.js';
import { firstRenewalFrom, renewalCost, renewsOn } from './price-schedule.js';
import './tables.js';

/**
 * The two messages of a price rise (product.md §1, decision 0038), each once per subscription
 * and change, on the job queue: `prices.tell` as soon as the change is made, `prices.remind`
 * 7 days before the first renewal at the new price. Both go only while the subscription still
 * renews on the plan; one cancelled or moved to another plan is not told again.
 */

type NoticeDeps = Pick<Deps, 'db' | 'clock' | 'config'>;
type Eb = ExpressionBuilder<
  Database & { n: Database['price_notices']; s: Database['subscriptions'] },
  'n' | 's'
>;

const keyOf = (row: { price_change_id: number; subscription_id: string }) =>
  `${row.price_change_id}:${row.subscription_id}`;

function parseKey(key: string): { changeId: number; subscriptionId: string } {
  const [change = '', subscriptionId = ''] = key.split(':');
  return { changeId: Number(change), subscriptionId };
}

function afterKey(eb: Eb, after: string | undefined): Expression<SqlBool> {
  if (!after) return eb.lit(true);
  const { changeId, subscriptionId } = parseKey(after);
  return eb.or([
    eb('n.price_change_id', '>', changeId),
    eb.and([eb('n.price_change_id', '=', changeId), eb('n.subscription_id', '>', subscriptionId)]),
  ]);
}

/** The notice with its subscription, plan and owner. */
function noticeFacts(deps: NoticeDeps, key: string) {
  const { changeId, subscriptionId } = parseKey(key);
  return deps.db
    .selectFrom('price_notices as n')
    .innerJoin('subscriptions as s', 's.id', 'n.subscription_id')
    .innerJoin('packages as p', 'p.id', 'n.package_id')
    .select([
      'n.subscription_id',
      'n.price_change_id',
      'n.package_id',
      'n.previous_cost',
      'n.takes_effect_at',
      'n.told_at',
      'n.reminded_at',
      's.owner_id',
      's.end_date',
      's.grace_until',
      's.is_auto_renew',
      'p.cost',
      'p.currency',
      'p.name_en',
      'p.name_mn',
      'p.duration_months',
    ])
    .select((eb) => renewsOn(eb.ref('n.package_id')).as('renews_on_plan'))
    .where('n.price_change_id', '=', changeId)
    .where('n.subscription_id', '=', subscriptionId)
    .executeTakeFirst();
}

type Facts = NonNullable<Awaited<ReturnType<typeof noticeFacts>>>;
const planName = (facts: Facts, lang: 'en' | 'mn') => (lang === 'mn' ? facts.name_mn : facts.name_en);

/** Sends the "price changes" message of one notice (once), and marks it told. */
export async function tellPriceChange(deps: NoticeDeps, key: string, log?: ErrorLog): Promise<boolean> {
  const facts = await noticeFacts(deps, key);
  if (!facts || facts.told_at) return false;
  const now = deps.clock.now();
  const current = facts.end_date > now || (facts.grace_until !== null && facts.grace_until > now);
  let sent = false;
  const from = firstRenewalFrom(facts.end_date, facts.duration_months, facts.takes_effect_at);
  // What that renewal will cost now: a cut made since may have undone the rise.
  const amount = await renewalCost(deps.db, {
    subscriptionId: facts.subscription_id,
    packageId: facts.package_id,
    periodStart: from,
    cost: facts.cost,
  });
  if (current && facts.renews_on_plan && amount > facts.previous_cost) {
    const was = { amount: facts.previous_cost, currency: facts.currency };
    const price = { amount, currency: facts.currency };
    sent = await notifyOnce(
      deps,
      {
        key: `price-told:${key}`,
        userId: facts.owner_id,
        text: (lang) => priceMessages.scheduled(lang, planName(facts, lang), was, price, from),
      },
      log,
    );
  }
  await deps.db
    .updateTable('price_notices')
    .set({ told_at: now })
    .where('price_change_id', '=', facts.price_change_id)
    .where('subscription_id', '=', facts.subscription_id)
    .execute();
  return sent;
}

/**
 * Sends the reminder before the first renewal at the new price (once), if the subscription
 * still renews then on the plan at more than it pays now; marks the notice reminded.
 */
export async function remindPriceChange(deps: NoticeDeps, key: string, log?: ErrorLog): Promise<boolean> {
  const facts = await noticeFacts(deps, key);
  if (!facts || facts.reminded_at || !facts.told_at) return false;
  const now = deps.clock.now();
  if (facts.end_date <= now || facts.end_date < facts.takes_effect_at) return false;
  const amount = await renewalCost(deps.db, {
    subscriptionId: facts.subscription_id,
    packageId: facts.package_id,
    periodStart: facts.end_date,
    cost: facts.cost,
  });
  let sent = false;
  if (facts.is_auto_renew && facts.renews_on_plan && amount > facts.previous_cost) {
    const was = { amount: facts.previous_cost, currency: facts.currency };
    const price = { amount, currency: facts.currency };
    sent = await notifyOnce(
      deps,
      {
        key: `price-reminder:${key}`,
        userId: facts.owner_id,
        text: (lang) => priceMessages.reminder(lang, planName(facts, lang), was, price, facts.end_date),
      },
      log,
    );
  }
  await deps.db
    .updateTable('price_notices')
    .set({ reminded_at: now })
    .where('price_change_id', '=', facts.price_change_id)
    .where('subscription_id', '=', facts.subscription_id)
    .execute();
  return sent;
}

/** How long after a rise a purchase checked out before it may still activate (a shopper's slow return, a late callback). */
const LATECOMER_WINDOW_MS = 2 * DAY_MS;

/**
 * A purchase checked out at the old price before a rise but activated after the rise's
 * transaction got no notice there: it is given one here (before each job scan), so it keeps
 * the price it agreed to for the 30 days and is told like the others. Bounded by the rises of
 * the last two days and the purchases checked out in the two days before each.
 */
export async function noticeLatecomers(deps: Pick<Deps, 'db' | 'clock'>): Promise<number> {
  const now = deps.clock.now();
  const written = await deps.db
    .insertInto('price_notices')
    .columns(['subscription_id', 'price_change_id', 'package_id', 'previous_cost', 'cost', 'takes_effect_at'])
    .expression((eb) =>
      eb
        .selectFrom('plan_price_changes as c')
        .innerJoin('payment_invoices as i', (join) =>
          join
            .onRef('i.package_id', '=', 'c.package_id')
            .on('i.status', '=', 'paid')
            .on('i.kind', '=', 'purchase')
            // Sold at the old price, checked out before the change.
            .onRef('i.amount', '=', 'c.previous_cost')
            .onRef('i.created_at', '<', 'c.changed_at')
            .on((on) => on('i.created_at', '>=', sql<Date>`c.changed_at - interval '2 days'`)),
        )
        .innerJoin('subscriptions as s', 's.invoice_id', 'i.invoice_id')
        .select([
          's.id',
          'c.id as price_change_id',
          'c.package_id',
          'c.previous_cost',
          'c.cost',
          'c.takes_effect_at',
        ])
        .where('c.changed_at', '>', new Date(now.getTime() - LATECOMER_WINDOW_MS))
        .whereRef('c.cost', '>', 'c.previous_cost')
        .whereRef('s.start_date', '>=', 'c.changed_at')
        .where((w) => renewsOn(w.ref('c.package_id'))),
    )
    .onConflict((oc) => oc.columns(['subscription_id', 'price_change_id']).doNothing())
    .returning('subscription_id')
    .execute();
  return written.length;
}

/** The price messages' work on the job queue, registered with the billing lifecycle's. */
export function registerPriceNoticeJobs(queue: JobQueue, deps: NoticeDeps): void {
  queue.beforeScan(() => noticeLatecomers(deps));
  for (const kind of priceNoticeJobKinds(deps)) queue.register(kind);
}

export function priceNoticeJobKinds(deps: NoticeDeps): JobKind[] {
  const { db } = deps;
  return [
    {
      name: 'prices.tell',
      findDue: async (_now, limit, after) => {
        const rows = await db
          .selectFrom('price_notices as n')
          .select(['n.price_change_id', 'n.subscription_id'])
          .where('n.told_at', 'is', null)
          .where((eb) => afterKey(eb as unknown as Eb, after))
          .orderBy('n.price_change_id')
          .orderBy('n.subscription_id')
          .limit(limit)
          .execute();
        return rows.map(keyOf);
      },
      run: (key, log) => tellPriceChange(deps, key, log),
    },
    {
      name: 'prices.remind',
      findDue: async (now, limit, after) => {
        const rows = await db
          .selectFrom('price_notices as n')
          .innerJoin('subscriptions as s', 's.id', 'n.subscription_id')
          .select(['n.price_change_id', 'n.subscription_id'])
          .where('n.reminded_at', 'is', null)
          .where('n.told_at', 'is not', null)
          .where('s.is_auto_renew', '=', true)
          .where((eb) => eb('s.end_date', '>=', eb.ref('n.takes_effect_at')))
          .where('s.end_date', '>', now)
          .where('s.end_date', '<=', new Date(now.getTime() + PRICE_REMINDER_DAYS * DAY_MS))
          .where((eb) => afterKey(eb as Eb, after))
          .orderBy('n.price_change_id')
          .orderBy('n.subscription_id')
          .limit(limit)
          .execute();
        return rows.map(keyOf);
      },
      run: (key, log) => remindPriceChange(deps, key, log),
    },
  ];
}
