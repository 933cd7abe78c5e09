import { randomBytes } from 'node:crypto';
import { DAY_MS, INVITATION_TTL_DAYS } from '@tunes/shared/constants';
import { API_ERROR_CODES } from '@tunes/shared/error-codes';
import type { InvitationCodes } from '@tunes/shared/family';
import type { Deps } from '../../deps.js';
import { conflict } from '../../lib/errors.js';
import { findPlanWithSeats, remainingSeats, seatUsage } from './seat-limit.js';
import { managedBy, ownedSharingPlan } from './sharing-plan.js';
import './tables.js';

/** 128 random bits, URL-safe: unguessable (security.md asks for at least 96). */
export function newInvitationCode(): string {
  return randomBytes(16).toString('base64url');
}

/** `Codes`: live links; `Remaining`: MaxSharedUsers minus members minus live codes. */
export async function listInvitationCodes(
  deps: Pick<Deps, 'db' | 'clock'>,
  subscriptionId: string,
  userId: string,
): Promise<InvitationCodes> {
  const now = deps.clock.now();
  const plan = managedBy(await findPlanWithSeats(deps.db, subscriptionId, now), userId);
  if (plan.end_date <= now) return { Codes: [], Remaining: 0 };
  const { members, liveCodes } = plan;
  return { Codes: liveCodes, Remaining: remainingSeats(plan, members, liveCodes.length, now) };
}

/** A new link for one free seat; refused when the plan has ended or no seat is free. */
export async function createInvitationCode(
  deps: Pick<Deps, 'db' | 'clock'>,
  subscriptionId: string,
  userId: string,
): Promise<{ code: string; expiresAt: Date }> {
  const now = deps.clock.now();
  return deps.db.transaction().execute(async (trx) => {
    const plan = await ownedSharingPlan(trx, subscriptionId, userId, true);
    if (plan.end_date <= now) throw conflict('This plan has ended.', API_ERROR_CODES.planEnded);
    const { members, liveCodes } = await seatUsage(trx, subscriptionId, now);
    if (remainingSeats(plan, members, liveCodes.length, now) <= 0) {
      throw conflict('No invitations remain on this plan.', API_ERROR_CODES.noSeatsLeft);
    }
    const code = newInvitationCode();
    const expiresAt = new Date(now.getTime() + INVITATION_TTL_DAYS * DAY_MS);
    await trx
      .insertInto('invitation_codes')
      .values({ code, subscription_id: subscriptionId, created_at: now, expires_at: expiresAt })
      .execute();
    return { code, expiresAt };
  });
}
