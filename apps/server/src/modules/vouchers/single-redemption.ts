import { DAY_MS } from '@tunes/shared/constants';
import {
  VOUCHER_ALREADY_SUBSCRIBED_MESSAGE,
  VOUCHER_ERRORS,
  VOUCHER_INVALID_MESSAGE,
} from '@tunes/shared/vouchers';
import type { Deps } from '../../deps.js';
import { AppError, badRequest } from '../../lib/errors.js';
import { LIMITS } from '../../lib/limits.js';
import { enforce } from '../../lib/throttle.js';
import { recordGrant } from '../premium/ledger.js';
import { hasActiveSubscription, lockSubscriber } from '../subscriptions/queries.js';
import './tables.js';

export interface Redemption {
  subscriptionId: string;
  startDate: Date;
  endDate: Date;
  code: string;
}

type Outcome = { kind: 'redeemed'; redemption: Redemption } | { kind: 'wrong-code' };

type RedeemDeps = Pick<Deps, 'db' | 'clock' | 'throttle'>;

/**
 * Single redemption: activates the voucher's package for its days, once per voucher, however
 * many redeem it at once (the voucher's row is held FOR UPDATE and `redeemed_by` set in the same
 * transaction; proven by test/vouchers/redeem.test.ts). A user holding an active
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
  const userTries = `voucher-tries:${userId}`;
  const clientTries = `voucher-tries-client:${clientAddress}`;
  await enforce(deps.throttle, userTries, LIMITS.voucherTriesPerUser);
  await enforce(deps.throttle, clientTries, LIMITS.voucherTriesFromClient);
  const outcome = await deps.db.transaction().execute(async (trx): Promise<Outcome> => {
    await lockSubscriber(trx, userId);
    if (await hasActiveSubscription(trx, userId, now)) {
      throw badRequest(VOUCHER_ALREADY_SUBSCRIBED_MESSAGE, undefined, VOUCHER_ERRORS.alreadySubscribed);
    }

    const voucher = await trx
      .selectFrom('vouchers')
      .select(['code', 'package_id', 'days', 'expires_at', 'redeemed_by', 'revoked_at'])
      .where('code', '=', code)
      .forUpdate()
      .executeTakeFirst();
    if (
      !voucher ||
      voucher.redeemed_by !== null ||
      voucher.revoked_at !== null ||
      (voucher.expires_at && voucher.expires_at <= now)
    ) {
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
    // Access without money: the ledger's own kind, so the books account for this period too.
    await recordGrant(trx, {
      subscriptionId: subscription.id,
      method: 'voucher',
      reference: `voucher:${subscription.id}`,
      reason: `${voucher.days} days`,
      now,
    });
    return {
      kind: 'redeemed',
      redemption: { subscriptionId: subscription.id, startDate: now, endDate, code },
    };
  });
  if (outcome.kind === 'wrong-code') {
    throw new AppError(400, VOUCHER_ERRORS.invalid, VOUCHER_INVALID_MESSAGE, { field: 'code' });
  }
  await Promise.all([deps.throttle.refund(userTries), deps.throttle.refund(clientTries)]);
  return outcome.redemption;
}
