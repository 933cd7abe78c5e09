import { randomBytes } from 'node:crypto';
import { INVITATION_TTL_DAYS } from '@tunes/shared/constants';
import {
  ALREADY_SUBSCRIBED_MESSAGE,
  INVITATION_CODE_PATTERN,
  INVITATION_ERRORS,
  INVITATION_INVALID_MESSAGE,
  type InvitationCodes,
  type SharedUser,
} from '@tunes/shared/family';
import type { Kysely, Transaction } from 'kysely';
import { prepared } from '../../db/prepared.js';
import type { Database } from '../../db/schema.js';
import { AppError, badRequest, conflict, forbidden, notFound, unauthorized } from '../../lib/errors.js';
import { hasActiveSubscription } from '../subscriptions/queries.js';
import './tables.js';

const DAY_MS = 24 * 60 * 60 * 1000;

/** 128 random bits, URL-safe: unguessable (security.md asks for at least 96). */
export function newInvitationCode(): string {
  return randomBytes(16).toString('base64url');
}

const invalidInvitation = () => new AppError(404, INVITATION_ERRORS.invalid, INVITATION_INVALID_MESSAGE);

type Db = Kysely<Database> | Transaction<Database>;

interface SharingPlan {
  id: string;
  owner_id: string;
  end_date: Date;
  allow_share: boolean;
  max_shared_users: number;
}

/**
 * The subscription with its package's sharing rules; `lock` takes the row FOR UPDATE so every
 * change of its seats runs one at a time (the seat limit holds whatever runs at once).
 */
function selectPlan(db: Db, subscriptionId: string) {
  return db
    .selectFrom('subscriptions as s')
    .innerJoin('packages as p', 'p.id', 's.package_id')
    .select(['s.id', 's.owner_id', 's.end_date', 'p.allow_share', 'p.max_shared_users'])
    .where('s.id', '=', subscriptionId);
}
const selectPlanForRead = prepared((db: Db, args: { subscriptionId: string }) =>
  selectPlan(db, args.subscriptionId),
);
const selectPlanForUpdate = prepared((db: Db, args: { subscriptionId: string }) =>
  selectPlan(db, args.subscriptionId).forUpdate('s'),
);

async function findPlan(db: Db, subscriptionId: string, lock = false): Promise<SharingPlan | undefined> {
  const [plan] = await (lock ? selectPlanForUpdate : selectPlanForRead)(db, { subscriptionId });
  return plan;
}

/** Only the owner of a sharing package manages it (product.md §6). */
async function ownedSharingPlan(db: Db, subscriptionId: string, userId: string, lock = false) {
  const plan = await findPlan(db, subscriptionId, lock);
  if (!plan) throw notFound('No such subscription.');
  if (plan.owner_id !== userId) throw forbidden('Only the owner of this plan may manage it.');
  if (!plan.allow_share) throw conflict('This plan cannot be shared.', 'plan_not_shared');
  return plan;
}

const countMembers = prepared((db: Db, args: { subscriptionId: string }) =>
  db
    .selectFrom('subscription_members')
    .select((eb) => eb.fn.countAll<string>().as('count'))
    .where('subscription_id', '=', args.subscriptionId),
);
const selectLiveCodes = prepared((db: Db, args: { subscriptionId: string; now: Date }) =>
  db
    .selectFrom('invitation_codes')
    .select('code')
    .where('subscription_id', '=', args.subscriptionId)
    .where('used_by', 'is', null)
    .where('expires_at', '>', args.now)
    .orderBy('created_at')
    .orderBy('code'),
);

async function seatUsage(db: Db, subscriptionId: string, now: Date) {
  const [[members], codes] = await Promise.all([
    countMembers(db, { subscriptionId }),
    selectLiveCodes(db, { subscriptionId, now }),
  ]);
  return { members: Number(members?.count ?? 0), liveCodes: codes.map((row) => row.code) };
}

function remainingSeats(plan: SharingPlan, members: number, liveCodes: number, now: Date): number {
  if (plan.end_date <= now) return 0;
  return Math.max(0, plan.max_shared_users - members - liveCodes);
}

/** `Codes`: live links; `Remaining`: MaxSharedUsers minus members minus live codes. */
export async function listInvitationCodes(
  db: Kysely<Database>,
  subscriptionId: string,
  userId: string,
  now: Date,
): Promise<InvitationCodes> {
  const plan = await ownedSharingPlan(db, subscriptionId, userId);
  if (plan.end_date <= now) return { Codes: [], Remaining: 0 };
  const { members, liveCodes } = await seatUsage(db, subscriptionId, now);
  return { Codes: liveCodes, Remaining: remainingSeats(plan, members, liveCodes.length, now) };
}

/** A new link for one free seat; refused when the plan has ended or no seat is free. */
export async function createInvitationCode(
  db: Kysely<Database>,
  subscriptionId: string,
  userId: string,
  now: Date,
): Promise<{ code: string; expiresAt: Date }> {
  return db.transaction().execute(async (trx) => {
    const plan = await ownedSharingPlan(trx, subscriptionId, userId, true);
    if (plan.end_date <= now) throw conflict('This plan has ended.', 'plan_ended');
    const { members, liveCodes } = await seatUsage(trx, subscriptionId, now);
    if (remainingSeats(plan, members, liveCodes.length, now) <= 0) {
      throw conflict('No invitations remain on this plan.', 'no_seats_left');
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

/** The members of an owner's plan (product.md §3 "Shared user"), in the order they joined. */
export async function listSharedUsers(
  db: Kysely<Database>,
  subscriptionId: string,
  userId: string,
): Promise<SharedUser[]> {
  await ownedSharingPlan(db, subscriptionId, userId);
  const rows = await db
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

/** The owner takes a member off the plan; the seat is free again at once. */
export async function removeSharedUser(
  db: Kysely<Database>,
  subscriptionId: string,
  userId: string,
  memberId: string,
): Promise<void> {
  await db.transaction().execute(async (trx) => {
    await ownedSharingPlan(trx, subscriptionId, userId, true);
    const removed = await trx
      .deleteFrom('subscription_members')
      .where('subscription_id', '=', subscriptionId)
      .where('user_id', '=', memberId)
      .executeTakeFirst();
    if (Number(removed.numDeletedRows) === 0) throw notFound('This user is not a member of the plan.');
  });
}

/**
 * Joins the user to the plan of `code`. One transaction holds the plan's row, so the code is
 * spent once and members never outnumber MaxSharedUsers however many accept at once.
 */
export async function acceptInvitation(
  db: Kysely<Database>,
  code: string,
  userId: string,
  now: Date,
): Promise<{ subscriptionId: string }> {
  if (!INVITATION_CODE_PATTERN.test(code)) throw invalidInvitation();
  return db.transaction().execute(async (trx) => {
    const found = await trx
      .selectFrom('invitation_codes')
      .select('subscription_id')
      .where('code', '=', code)
      .executeTakeFirst();
    if (!found) throw invalidInvitation();

    const plan = await findPlan(trx, found.subscription_id, true);
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

    // The user's row is held too, so one person cannot join two plans (or redeem) at once.
    const user = await trx
      .selectFrom('users')
      .select('id')
      .where('id', '=', userId)
      .forUpdate()
      .executeTakeFirst();
    if (!user) throw unauthorized('The account no longer exists.');
    if (plan.owner_id === userId || (await hasActiveSubscription(trx, userId, now))) {
      throw badRequest(ALREADY_SUBSCRIBED_MESSAGE, undefined, INVITATION_ERRORS.alreadySubscribed);
    }

    const { members } = await seatUsage(trx, plan.id, now);
    if (members >= plan.max_shared_users) throw invalidInvitation();

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
