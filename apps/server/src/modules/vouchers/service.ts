import { randomInt } from 'node:crypto';
import {
  type CreateVouchersInput,
  VOUCHER_ALPHABET,
  VOUCHER_ALREADY_SUBSCRIBED_MESSAGE,
  VOUCHER_ERRORS,
  VOUCHER_INVALID_MESSAGE,
  VOUCHER_LOCKOUT_SECONDS,
  VOUCHER_MAX_FAILURES,
} from '@tunes/shared/vouchers';
import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.js';
import { AppError, badRequest, notFound, tooManyRequests, unauthorized } from '../../lib/errors.js';
import { hasActiveSubscription } from '../subscriptions/queries.js';
import './tables.js';

const DAY_MS = 24 * 60 * 60 * 1000;
const LOCKOUT_MS = VOUCHER_LOCKOUT_SECONDS * 1000;

/** `XXXX-XXXX-XXXX`: 12 characters of a 31-letter alphabet (~59 bits), 14 with hyphens. */
export function newVoucherCode(): string {
  const groups = Array.from({ length: 3 }, () =>
    Array.from({ length: 4 }, () => VOUCHER_ALPHABET[randomInt(VOUCHER_ALPHABET.length)]).join(''),
  );
  return groups.join('-');
}

/** Operators' vouchers for a package (by merchant code); answers the new codes. */
export async function createVouchers(
  db: Kysely<Database>,
  input: CreateVouchersInput,
  now: Date,
): Promise<{ codes: string[]; packageName: string; expiresAt: Date | null }> {
  const pkg = await db
    .selectFrom('packages')
    .select(['id', 'name_en'])
    .where('merchant_code', '=', input.package)
    .executeTakeFirst();
  if (!pkg) throw notFound(`No package has the merchant code ${input.package}.`);
  const expiresAt = input.expiresAt ? new Date(input.expiresAt) : null;
  if (expiresAt && expiresAt <= now) throw badRequest('The expiry must be in the future.', 'expiresAt');

  const codes = new Set<string>();
  while (codes.size < input.count) codes.add(newVoucherCode());
  const rows = [...codes].map((code) => ({
    code,
    package_id: pkg.id,
    days: input.days,
    expires_at: expiresAt,
    created_at: now,
  }));
  const inserted: string[] = [];
  for (let start = 0; start < rows.length; start += 500) {
    const batch = await db
      .insertInto('vouchers')
      .values(rows.slice(start, start + 500))
      // A clash with an older code is astronomically rare; such a code is just left out.
      .onConflict((oc) => oc.column('code').doNothing())
      .returning('code')
      .execute();
    inserted.push(...batch.map((row) => row.code));
  }
  return { codes: inserted, packageName: pkg.name_en, expiresAt };
}

export interface Redemption {
  subscriptionId: string;
  startDate: Date;
  endDate: Date;
  code: string;
}

type Outcome = { kind: 'redeemed'; redemption: Redemption } | { kind: 'wrong-code' };

/**
 * Activates the voucher's package for its days, once per voucher. A user holding an active
 * subscription is refused before the code is looked at (no oracle). Every wrong code is counted;
 * the fifth within an hour locks the account out of redeeming for the next hour (429).
 */
export async function redeemVoucher(
  db: Kysely<Database>,
  userId: string,
  rawCode: string,
  now: Date,
): Promise<Redemption> {
  const code = rawCode.trim().toUpperCase();
  const outcome = await db.transaction().execute(async (trx): Promise<Outcome> => {
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

/** What the coupon service is told: the phone number, or the username without one. */
export async function couponMsisdn(db: Kysely<Database>, userId: string): Promise<string> {
  const user = await db
    .selectFrom('users')
    .select(['phone_number', 'username'])
    .where('id', '=', userId)
    .executeTakeFirstOrThrow();
  return user.phone_number ?? user.username;
}
