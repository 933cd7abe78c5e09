import { createHash } from 'node:crypto';
import { API_ERROR_CODES } from '@tunes/shared/error-codes';
import type { TrialRefusal } from '@tunes/shared/trials';
import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.js';
import { AppError } from '../../lib/errors.js';
import type { ProviderCard } from '../providers/card-gateway.js';
import './tables.js';

/**
 * Once per person (docs/decisions/0045-trials.md): a trial claims its account, its phone number
 * and, for a card trial, its card, one row each whose primary key refuses a second claim. The
 * number and card are kept only as digests: the claim outlives a deleted account's data.
 */

const digest = (text: string) => createHash('sha256').update(text).digest('hex');

export const accountKey = (userId: string) => `account:${userId}`;
export const numberKey = (msisdn: string) => `number:${digest(msisdn)}`;
/** The gateway gives a new token per save, so a card is known by what it shows: brand, last 4, expiry. */
export const cardKey = (card: Pick<ProviderCard, 'brand' | 'last4' | 'expires'>) =>
  `card:${digest(`${card.brand.toLowerCase()}|${card.last4}|${card.expires}`)}`;

const REFUSALS: Record<TrialRefusal, string> = {
  used_account: 'This account has already had a free trial or Premium.',
  used_number: 'This phone number has already had a free trial.',
  subscribed: 'You have Premium already.',
};

/** 409 `trial_not_eligible` with its reason. */
export const notEligible = (reason: TrialRefusal) =>
  new AppError(409, API_ERROR_CODES.trialNotEligible, REFUSALS[reason], { reason });

/** A card that had a trial: said on the profile after the save-card page. */
export const cardUsed = () =>
  new AppError(409, API_ERROR_CODES.trialCardUsed, 'This card has already been used for a free trial.');

/**
 * Why the listener may not start a trial, or null: Premium now (owned or a seat on a shared plan),
 * an account that had a trial or any Premium of its own, a number that had a trial.
 */
export async function refusalOf(
  db: Kysely<Database>,
  user: { id: string; phone_number: string | null },
  now: Date,
): Promise<TrialRefusal | null> {
  const live = await db
    .selectFrom('subscriptions as s')
    .select('s.id')
    .where((eb) =>
      eb.or([
        eb('s.owner_id', '=', user.id),
        eb.exists(
          eb
            .selectFrom('subscription_members as m')
            .select('m.user_id')
            .whereRef('m.subscription_id', '=', 's.id')
            .where('m.user_id', '=', user.id),
        ),
      ]),
    )
    .where((eb) => eb.or([eb('s.end_date', '>', now), eb('s.grace_until', '>', now)]))
    .limit(1)
    .executeTakeFirst();
  if (live) return 'subscribed';
  const had = await db
    .selectFrom('subscriptions')
    .select('id')
    .where('owner_id', '=', user.id)
    .limit(1)
    .executeTakeFirst();
  const keys = [accountKey(user.id), ...(user.phone_number ? [numberKey(user.phone_number)] : [])];
  const claimed = await db.selectFrom('trial_claims').select('key').where('key', 'in', keys).execute();
  if (had || claimed.some((row) => row.key === accountKey(user.id))) return 'used_account';
  if (claimed.length > 0) return 'used_number';
  return null;
}

/** Which claim was taken already: the account or number (not eligible), or the card. */
export class ClaimTaken extends Error {
  constructor(readonly kind: 'account' | 'number' | 'card') {
    super(`trial claim taken: ${kind}`);
  }
}

/**
 * Claims the keys for `trialId` inside the caller's transaction; a key claimed before (or by a
 * transaction committed meanwhile) throws ClaimTaken, so the caller's transaction rolls back whole.
 */
export async function claimKeys(
  trx: Kysely<Database>,
  trialId: string,
  now: Date,
  keys: { kind: ClaimTaken['kind']; key: string }[],
): Promise<void> {
  for (const { kind, key } of keys) {
    const claimed = await trx
      .insertInto('trial_claims')
      .values({ key, trial_id: trialId, created_at: now })
      .onConflict((oc) => oc.column('key').doNothing())
      .returning('key')
      .executeTakeFirst();
    if (!claimed) throw new ClaimTaken(kind);
  }
}
