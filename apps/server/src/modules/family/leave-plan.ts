import { MEMBERSHIP_ERRORS } from '@tunes/shared/family';
import { formatPhoneForDisplay } from '@tunes/shared/validation';
import type { FastifyBaseLogger } from 'fastify';
import type { Deps } from '../../deps.js';
import { conflict, notFound } from '../../lib/errors.js';
import { languageOf } from '../../lib/message-language.js';
import { sendToAccount } from '../notifications/send-to-account.js';
import { recordDeparture } from './departures.js';
import { familyMessages } from './messages.js';
import { findSharingPlan } from './sharing-plan.js';
import './tables.js';

type LeaveDeps = Pick<Deps, 'db' | 'clock' | 'config'>;

/** The member as the owner knows them: first name, else the number on the plan's member list. */
export interface DepartingMember {
  first_name: string;
  phone_number: string | null;
}

/**
 * A member leaves a Duo or Family plan (product.md §14): their seat is free at once and the owner
 * is told. Like every change of a plan's seats it first takes the plan's row FOR UPDATE
 * (sharing-plan.ts), so it runs one at a time with accepts, new codes and the owner's removals,
 * and the counts those read under the lock (seat-limit.ts) never see half a leave. Of many leaves
 * at once one removes the seat and tells the owner; the rest find no membership (404).
 */
export async function leavePlan(
  deps: LeaveDeps,
  subscriptionId: string,
  userId: string,
  log?: FastifyBaseLogger,
): Promise<void> {
  const { ownerId, member } = await deps.db.transaction().execute(async (trx) => {
    const plan = await findSharingPlan(trx, subscriptionId, true);
    if (!plan) throw notFound('No such subscription.');
    if (plan.owner_id === userId) {
      throw conflict(
        'The owner cannot leave their own plan; cancel it instead.',
        MEMBERSHIP_ERRORS.ownerCannotLeave,
      );
    }
    const removed = await trx
      .deleteFrom('subscription_members')
      .where('subscription_id', '=', subscriptionId)
      .where('user_id', '=', userId)
      .executeTakeFirst();
    if (removed.numDeletedRows === 0n) throw notFound('You are not a member of this plan.');
    await recordDeparture(trx, { userId, subscriptionId, reason: 'left', now: deps.clock.now() });
    const departing = await trx
      .selectFrom('users')
      .select(['first_name', 'phone_number'])
      .where('id', '=', userId)
      .executeTakeFirstOrThrow();
    return { ownerId: plan.owner_id, member: departing };
  });
  await tellOwnerMemberLeft(deps, ownerId, member, log);
}

/** Tells a plan's owner, on their number or else their address, that a member has left. */
export async function tellOwnerMemberLeft(
  deps: LeaveDeps,
  ownerId: string,
  member: DepartingMember,
  log?: FastifyBaseLogger,
): Promise<void> {
  const owner = await deps.db
    .selectFrom('users')
    .select(['phone_number', 'primary_email', 'language'])
    .where('id', '=', ownerId)
    .where('deleted_at', 'is', null)
    .executeTakeFirst();
  if (!owner) return;
  const lang = languageOf(owner.language);
  const who =
    member.first_name.trim() || (member.phone_number ? formatPhoneForDisplay(member.phone_number) : null);
  const text = familyMessages.memberLeft(lang, who);
  if (owner.phone_number) {
    await sendToAccount(deps, ownerId, { channel: 'sms', to: owner.phone_number, text }, log);
  } else if (owner.primary_email) {
    const subject = familyMessages.memberLeftSubject(lang);
    await sendToAccount(deps, ownerId, { channel: 'email', to: owner.primary_email, subject, text }, log);
  }
}
