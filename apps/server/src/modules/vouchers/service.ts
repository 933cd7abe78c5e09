import { randomInt } from 'node:crypto';
import {
  type CreateVouchersInput,
  VOUCHER_ALPHABET,
  VOUCHER_ALREADY_SUBSCRIBED_MESSAGE,
  VOUCHER_ERRORS,
  VOUCHER_INVALID_MESSAGE,
} from '@tunes/shared/vouchers';
import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.js';
import type { Deps } from '../../deps.js';
import { AppError, badRequest, notFound, unauthorized } from '../../lib/errors.js';
import { LIMITS } from '../../lib/limits.js';
import { enforce } from '../../lib/throttle.js';
import { hasActiveSubscription } from '../subscriptions/queries.js';
import './tables.js';

const DAY_MS = 24 * 60 * 60 * 1000;

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

type RedeemDeps = Pick<Deps, 'db' | 'clock' | 'throttle'>;

/**
 * Activates the voucher's package for its days, once per voucher. A user holding an active
 * subscription is refused before the code is looked at (no oracle). Every try takes one from the
 * user's and the client address's voucher tries before the code is looked up (one atomic step
 * each, so guesses at once count like guesses in a row); a redeemed code gives its tries back,
 * so only wrong codes count (429 once they are spent).
 */
export async function redeemVoucher(
  deps: RedeemDeps,
  userId: string,
  rawCode: string,
  clientAddress: string,
): Promise<Redemption> {
  const code = rawCode.trim().toUpperCase();
  const now = deps.clock.now();
  const tries = [`voucher-tries:${userId}`, `voucher-tries-client:${clientAddress}`];
  await enforce(deps.throttle, tries[0] as string, LIMITS.voucherTriesPerUser);
  await enforce(deps.throttle, tries[1] as string, LIMITS.voucherTriesFromClient);
  const outcome = await deps.db.transaction().execute(async (trx): Promise<Outcome> => {
    // One redemption per user at a time: two vouchers at once cannot stack two subscriptions.
    const user = await trx
      .selectFrom('users')
      .select('id')
      .where('id', '=', userId)
      .forUpdate()
      .executeTakeFirst();
    if (!user) throw unauthorized('The account no longer exists.');
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
  await Promise.all(tries.map((key) => deps.throttle.refund(key)));
  return outcome.redemption;
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
