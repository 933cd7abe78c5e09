import type { SubscriptionView } from '@tunes/shared/profile';
import type { Deps } from '../../deps.js';
import { ownedSubscription } from '../subscriptions/owned-subscription.js';
import { listUserSubscriptions, selectSubscriptions, toSubscriptionView } from '../subscriptions/queries.js';

/**
 * The user's subscriptions (product.md §7 `users/{sub}/subscriptions`). Without IsFutureActive only
 * periods that have started are listed; with it, a paid period waiting to start is listed too.
 */
export async function listSubscriptions(
  deps: Pick<Deps, 'db' | 'clock'>,
  userId: string,
  includeFuture: boolean,
): Promise<SubscriptionView[]> {
  const now = deps.clock.now();
  const all = await listUserSubscriptions(deps.db, userId, now);
  return includeFuture ? all : all.filter((subscription) => new Date(subscription.StartDate) <= now);
}

/**
 * Cancelling Premium (FAQ): auto-renew goes off and access lasts to the end of the period.
 * Only the owner may cancel; a member of a shared plan may not. Cancelling twice changes nothing.
 */
export async function cancelAutoRenew(
  deps: Pick<Deps, 'db' | 'clock'>,
  userId: string,
  subscriptionId: string,
): Promise<SubscriptionView> {
  const { db } = deps;
  const now = deps.clock.now();
  await ownedSubscription(deps, userId, subscriptionId, 'cancel');
  await db
    .updateTable('subscriptions')
    .set({ is_auto_renew: false, cancelled_at: now, updated_at: now })
    .where('id', '=', subscriptionId)
    .where('is_auto_renew', '=', true)
    .execute();
  return subscriptionView(deps, subscriptionId);
}

/** One subscription in the spec's shape as its owner sees it, whether or not it is still active. */
export async function subscriptionView(
  deps: Pick<Deps, 'db'>,
  subscriptionId: string,
): Promise<SubscriptionView> {
  const row = await selectSubscriptions(deps.db).where('s.id', '=', subscriptionId).executeTakeFirstOrThrow();
  return toSubscriptionView(row, 'owner');
}
