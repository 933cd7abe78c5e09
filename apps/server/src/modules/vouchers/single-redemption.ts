import {
  VOUCHER_ALREADY_SUBSCRIBED_MESSAGE,
  VOUCHER_ERRORS,
  VOUCHER_INVALID_MESSAGE,
  VOUCHER_LOCKOUT_SECONDS,
  VOUCHER_MAX_FAILURES,
} from '@tunes/shared/vouchers';
import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.js';
import type { Deps } from '../../deps.js';
import { AppError, badRequest, tooManyRequests, unauthorized } from '../../lib/errors.js';
import { hasActiveSubscription } from '../subscriptions/queries.js';
import './tables.js';

const DAY_MS = 24 * 60 * 60 * 1000;
const LOCKOUT_MS = VOUCHER_LOCKOUT_SECONDS * 1000;

export interface Redemption {
  subscriptionId: string;
  startDate: Date;
  endDate: Date;
  code: string;
}

type Outcome = { kind: 'redeemed'; redemption: Redemption } | { kind: 'wrong-code' };

/**
 * Single redemption: activates the voucher's package for its days, once per voucher, however
 * many redeem it at once (the voucher's row is held FOR UPDATE and `redeemed_by` set in the same
 * transaction). A user holding an active subscription is refused before the code is looked at
 * (no oracle). Every wrong code is counted; the fifth within an hour locks the account out of
 * redeeming for the next hour (429). Proven by test/vouchers/redeem.test.ts.
 */
export async function redeemVoucher(
  deps: Pick<Deps, 'db' | 'clock'>,
  userId: string,
  rawCode: string,
): Promise<Redemption> {
  const code = rawCode.trim().toUpperCase();
  const now = deps.clock.now();
  const outcome = await deps.db.transaction().execute(async (trx): Promise<Outcome> => {
    // One redemption per user at a time: concurrent guesses cannot slip past the lockout.
    const user = await trx
      .selectFrom('users')
      .select('id')
      .where('id', '=', userId)
      .forUpdate()
      .executeTakeFirst();
    if (!user) throw unauthorized('The account no longer exists.');
    const lockout = await trx
      .selectFrom('voucher_lockouts')
      .select('locked_until')
      .where('user_id', '=', userId)
      .executeTakeFirst();
    if (lockout && lockout.locked_until > now) {
      throw tooManyRequests(
        (lockout.locked_until.getTime() - now.getTime()) / 1000,
        'Too many wrong voucher codes. Try again later.',
      );
    }
    if (await hasActiveSubscription(trx, userId, now)) {
      throw badRequest(VOUCHER_ALREADY_SUBSCRIBED_MESSAGE, undefined, VOUCHER_ERRORS.alreadySubscribed);
    }

    const voucher = await trx
      .selectFrom('vouchers')
      .select(['code', 'package_id', 'days', 'expires_at', 'redeemed_by'])
      .where('code', '=', code)
      .forUpdate()
      .executeTakeFirst();
    if (!voucher || voucher.redeemed_by !== null || (voucher.expires_at && voucher.expires_at <= now)) {
      await recordFailure(trx, userId, now);
      return { kind: 'wrong-code' };
    }

    const endDate = new Date(now.getTime() + voucher.days * DAY_MS);
    const subscription = await trx
      .insertInto('subscriptions')
      .values({
        owner_id: userId,
        package_id: voucher.package_id,
        start_date: now,
        end_date: endDate,
        is_auto_renew: false,
        source_type: 'Voucher',
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    await trx
      .updateTable('vouchers')
      .set({ redeemed_by: userId, redeemed_at: now, subscription_id: subscription.id })
      .where('code', '=', code)
      .execute();
    return {
      kind: 'redeemed',
      redemption: { subscriptionId: subscription.id, startDate: now, endDate, code },
    };
  });
  if (outcome.kind === 'wrong-code') {
    throw new AppError(400, VOUCHER_ERRORS.invalid, VOUCHER_INVALID_MESSAGE, { field: 'code' });
  }
  return outcome.redemption;
}

async function recordFailure(trx: Kysely<Database>, userId: string, now: Date): Promise<void> {
  await trx.insertInto('voucher_failures').values({ user_id: userId, failed_at: now }).execute();
  const since = new Date(now.getTime() - LOCKOUT_MS);
  await trx
    .deleteFrom('voucher_failures')
    .where('user_id', '=', userId)
    .where('failed_at', '<=', since)
    .execute();
  const { count } = await trx
    .selectFrom('voucher_failures')
    .select((eb) => eb.fn.countAll<string>().as('count'))
    .where('user_id', '=', userId)
    .where('failed_at', '>', since)
    .executeTakeFirstOrThrow();
  if (Number(count) < VOUCHER_MAX_FAILURES) return;
  const lockedUntil = new Date(now.getTime() + LOCKOUT_MS);
  await trx
    .insertInto('voucher_lockouts')
    .values({ user_id: userId, locked_until: lockedUntil })
    .onConflict((oc) => oc.column('user_id').doUpdateSet({ locked_until: lockedUntil }))
    .execute();
  // The lockout starts a fresh count: after it ends, five more wrong codes lock again.
  await trx.deleteFrom('voucher_failures').where('user_id', '=', userId).execute();
}
