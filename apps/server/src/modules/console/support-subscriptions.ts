import { randomUUID } from 'node:crypto';
import { DAY_MS } from '@tunes/shared/constants';
import { sql } from 'kysely';
import type { Deps } from '../../deps.js';
import { notFound } from '../../lib/errors.js';
import { recordGrant } from '../premium/ledger.js';
import { cancelAutoRenew } from '../premium/subscriptions.js';
import { audit } from './audit.js';
import { refuseOverCap } from './extension-cap.js';
import { type SupportDeps, subscriptionsOf, toSubscriptionView, UUID } from './support-views.js';
import type { OperatorRole } from './tables.js';
import './tables.js';

async function ownedSubscriptionRow(deps: SupportDeps, userId: string, subscriptionId: string) {
  if (!UUID.test(subscriptionId)) throw notFound('No such subscription of this listener.');
  const row = await subscriptionsOf(deps)
    .where('s.id', '=', subscriptionId)
    .where('s.owner_id', '=', userId)
    // Callers read, then write from what they read: concurrent extends wait and add up.
    .modifyEnd(sql`for update of s`)
    .executeTakeFirst();
  if (!row) throw notFound('No such subscription of this listener.');
  return row;
}

/**
 * Moves the period's end (and its next billing step) `days` later, within the operator's caps
 * (extension-cap.ts): a refusal is answered 403 and written to the audit log.
 */
export async function extendSubscription(
  deps: SupportDeps,
  operator: { id: string; role: OperatorRole },
  userId: string,
  subscriptionId: string,
  days: number,
) {
  const now = deps.clock.now();
  const operatorId = operator.id;
  const done = await deps.db.transaction().execute(async (trx) => {
    const tx = { db: trx, clock: deps.clock };
    const before = await ownedSubscriptionRow(tx, userId, subscriptionId);
    const refusal = await refuseOverCap(trx, now, {
      operatorId,
      role: operator.role,
      userId,
      subscriptionId,
      days,
    });
    if (refusal) return { refusal };
    const shift = days * DAY_MS;
    const from = before.end_date > now ? before.end_date : now;
    const newEnd = new Date(from.getTime() + shift);
    await trx
      .updateTable('subscriptions')
      .set({ end_date: newEnd, grace_until: null, updated_at: now })
      .where('id', '=', subscriptionId)
      .execute();
    // A pending billing step (reminder, charge) moves as far as the end date did.
    const movedSeconds = Math.round((newEnd.getTime() - before.end_date.getTime()) / 1000);
    await trx
      .updateTable('subscriptions')
      .set({ next_billing_at: sql<Date>`next_billing_at + make_interval(secs => ${movedSeconds}::integer)` })
      .where('id', '=', subscriptionId)
      .where('next_billing_at', 'is not', null)
      .execute();
    await recordGrant(trx, {
      subscriptionId,
      method: 'extension',
      reference: `extension:${randomUUID()}`,
      reason: `${days} days by operator ${operatorId}`,
      now,
    });
    const after = await ownedSubscriptionRow(tx, userId, subscriptionId);
    const view = toSubscriptionView(after, userId, now);
    await audit(trx, now, {
      operatorId,
      action: 'user.extend',
      targetType: 'subscription',
      targetId: subscriptionId,
      before: toSubscriptionView(before, userId, now),
      after: { ...view, days, userId },
    });
    return { view };
  });
  if ('refusal' in done) throw done.refusal;
  return done.view;
}

/** Cancels: no renewal (the listener's own cancel, billing code), or the period ends now. */
export async function cancelSubscription(
  deps: SupportDeps,
  operatorId: string,
  userId: string,
  subscriptionId: string,
  immediately: boolean,
) {
  const now = deps.clock.now();
  return deps.db.transaction().execute(async (trx) => {
    const tx = { db: trx, clock: deps.clock };
    const before = await ownedSubscriptionRow(tx, userId, subscriptionId);
    await cancelAutoRenew(tx, userId, subscriptionId);
    if (immediately) await endPeriodNow(trx, subscriptionId, now);
    const view = toSubscriptionView(await ownedSubscriptionRow(tx, userId, subscriptionId), userId, now);
    await audit(trx, now, {
      operatorId,
      action: 'user.cancel',
      targetType: 'subscription',
      targetId: subscriptionId,
      before: toSubscriptionView(before, userId, now),
      after: { ...view, immediately, userId },
    });
    return view;
  });
}

/** Ends a subscription's period now: no access, no renewal, no retry. */
export async function endPeriodNow(trx: Deps['db'], subscriptionId: string, now: Date): Promise<void> {
  await trx
    .updateTable('subscriptions')
    .set({
      end_date: now,
      is_auto_renew: false,
      cancelled_at: now,
      next_billing_at: null,
      grace_until: null,
      updated_at: now,
    })
    .where('id', '=', subscriptionId)
    .where('end_date', '>', now)
    .execute();
}
