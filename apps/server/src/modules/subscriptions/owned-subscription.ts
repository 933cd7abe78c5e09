import type { Deps } from '../../deps.js';
import { forbidden, notFound } from '../../lib/errors.js';

/**
 * A subscription its owner changes (plan change, resume, pay now): a member of a shared plan is
 * refused with 403, anyone else is told it does not exist.
 */
export async function ownedSubscription(
  deps: Pick<Deps, 'db'>,
  userId: string,
  subscriptionId: string,
  action: 'cancel' | 'change' = 'change',
) {
  const subscription = await deps.db
    .selectFrom('subscriptions as s')
    .innerJoin('packages as p', 'p.id', 's.package_id')
    .select([
      's.id',
      's.owner_id',
      's.package_id',
      's.next_package_id',
      's.end_date',
      's.grace_until',
      's.is_auto_renew',
      's.source_type',
      's.renewal_attempts',
      'p.cost',
      'p.duration_months',
      'p.merchant_code',
    ])
    .where('s.id', '=', subscriptionId)
    .executeTakeFirst();
  if (!subscription) throw notFound('There is no such subscription.');
  if (subscription.owner_id !== userId) {
    const member = await deps.db
      .selectFrom('subscription_members')
      .select('user_id')
      .where('subscription_id', '=', subscriptionId)
      .where('user_id', '=', userId)
      .executeTakeFirst();
    throw member
      ? forbidden(`Only the owner of the plan can ${action} it.`)
      : notFound('There is no such subscription.');
  }
  return subscription;
}
