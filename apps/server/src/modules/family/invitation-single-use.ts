import {
  ALREADY_SUBSCRIBED_MESSAGE,
  INVITATION_CODE_PATTERN,
  INVITATION_ERRORS,
  INVITATION_INVALID_MESSAGE,
} from '@tunes/shared/family';
import type { Deps } from '../../deps.js';
import { AppError, badRequest } from '../../lib/errors.js';
import { hasActiveSubscription, lockSubscriber } from '../subscriptions/queries.js';
import { hasSeatForMember, seatUsage } from './seat-limit.js';
import { findSharingPlan } from './sharing-plan.js';
import './tables.js';

const invalidInvitation = () => new AppError(404, INVITATION_ERRORS.invalid, INVITATION_INVALID_MESSAGE);

/**
 * Joins the user to the plan of `code`. An invitation joins at most one member and only before
 * it expires (security.md): one transaction holds the plan's row and the code's row, so the code
 * is spent once and members never outnumber MaxSharedUsers however many accept at once.
 * An unknown, used or expired code all answer the same 404.
 */
export async function acceptInvitation(
  deps: Pick<Deps, 'db' | 'clock'>,
  code: string,
  userId: string,
): Promise<{ subscriptionId: string }> {
  if (!INVITATION_CODE_PATTERN.test(code)) throw invalidInvitation();
  const now = deps.clock.now();
  return deps.db.transaction().execute(async (trx) => {
    const found = await trx
      .selectFrom('invitation_codes')
      .select('subscription_id')
      .where('code', '=', code)
      .executeTakeFirst();
    if (!found) throw invalidInvitation();

    const plan = await findSharingPlan(trx, found.subscription_id, true);
    const invitation = await trx
      .selectFrom('invitation_codes')
      .select(['used_by', 'expires_at'])
      .where('code', '=', code)
      .forUpdate()
      .executeTakeFirst();
    if (!plan || !invitation || invitation.used_by !== null || invitation.expires_at <= now) {
      throw invalidInvitation();
    }
    if (!plan.allow_share || plan.end_date <= now) throw invalidInvitation();

    await lockSubscriber(trx, userId);
    if (plan.owner_id === userId || (await hasActiveSubscription(trx, userId, now))) {
      throw badRequest(ALREADY_SUBSCRIBED_MESSAGE, undefined, INVITATION_ERRORS.alreadySubscribed);
    }

    const { members } = await seatUsage(trx, plan.id, now);
    if (!hasSeatForMember(plan, members)) throw invalidInvitation();

    await trx
      .updateTable('invitation_codes')
      .set({ used_by: userId, used_at: now })
      .where('code', '=', code)
      .execute();
    await trx
      .insertInto('subscription_members')
      .values({ subscription_id: plan.id, user_id: userId, joined_at: now })
      .onConflict((oc) => oc.columns(['subscription_id', 'user_id']).doNothing())
      .execute();
    return { subscriptionId: plan.id };
  });
}
