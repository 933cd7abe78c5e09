import type { SharedUser } from '@tunes/shared/family';
import type { Deps } from '../../deps.js';
import { notFound } from '../../lib/errors.js';
import type { ErrorLog } from '../../lib/logging.js';
import { recordDeparture, tellRemovedMember } from './departures.js';
import { ownedSharingPlan } from './sharing-plan.js';
import './tables.js';

/** The members of an owner's plan (product.md §3 "Shared user"), in the order they joined. */
export async function listSharedUsers(
  deps: Pick<Deps, 'db'>,
  subscriptionId: string,
  userId: string,
): Promise<SharedUser[]> {
  await ownedSharingPlan(deps.db, subscriptionId, userId);
  const rows = await deps.db
    .selectFrom('subscription_members as m')
    .innerJoin('users as u', 'u.id', 'm.user_id')
    .select(['u.id', 'u.first_name', 'u.phone_number', 'u.username'])
    .where('m.subscription_id', '=', subscriptionId)
    .orderBy('m.joined_at')
    .orderBy('u.id')
    .execute();
  return rows.map((row) => ({
    UserId: row.id,
    FirstName: row.first_name,
    Username: row.phone_number ?? row.username,
  }));
}

/**
 * The owner takes a member off the plan; the seat is free again at once, the member's profile
 * says their Premium ended, and the member is told (departures.ts).
 */
export async function removeSharedUser(
  deps: Pick<Deps, 'db' | 'clock' | 'config'>,
  subscriptionId: string,
  userId: string,
  memberId: string,
  log?: ErrorLog,
): Promise<void> {
  await deps.db.transaction().execute(async (trx) => {
    await ownedSharingPlan(trx, subscriptionId, userId, true);
    const removed = await trx
      .deleteFrom('subscription_members')
      .where('subscription_id', '=', subscriptionId)
      .where('user_id', '=', memberId)
      .executeTakeFirst();
    if (Number(removed.numDeletedRows) === 0) throw notFound('This user is not a member of the plan.');
    await recordDeparture(trx, {
      userId: memberId,
      subscriptionId,
      reason: 'removed',
      now: deps.clock.now(),
    });
  });
  await tellRemovedMember(deps, memberId, userId, log);
}
