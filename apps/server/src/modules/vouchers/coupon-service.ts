import type { FastifyBaseLogger } from 'fastify';
import type { Deps } from '../../deps.js';
import './tables.js';

const TIMEOUT_MS = 5000;

export interface CouponNotice {
  /** The user's phone number, or their username when they have none (product.md §7). */
  msisdn: string;
  couponcode: string;
}

/**
 * The follow-up call after a voucher is redeemed (product.md §7): POST `{ msisdn, couponcode }` to
 * COUPON_SERVICE_URL. Without that URL the call is recorded, not sent. Its result is not used,
 * so a failure is logged and never undoes the redemption.
 */
export async function notifyCouponService(
  deps: Pick<Deps, 'db' | 'config'>,
  userId: string,
  couponCode: string,
  log: FastifyBaseLogger,
): Promise<void> {
  const { db } = deps;
  const serviceUrl = deps.config.COUPON_SERVICE_URL;
  const notice: CouponNotice = { msisdn: await couponMsisdn(deps, userId), couponcode: couponCode };
  let status: 'recorded' | 'sent' | 'failed' = 'recorded';
  if (serviceUrl) {
    try {
      const response = await fetch(serviceUrl, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(notice),
        signal: AbortSignal.timeout(TIMEOUT_MS),
      });
      status = response.ok ? 'sent' : 'failed';
      if (!response.ok) log.warn({ status: response.status }, 'coupon service refused the notice');
    } catch (error) {
      status = 'failed';
      log.warn({ err: error }, 'coupon service unreachable');
    }
  }
  try {
    await db
      .insertInto('coupon_notifications')
      .values({ msisdn: notice.msisdn, coupon_code: notice.couponcode, status })
      .execute();
  } catch (error) {
    log.error({ err: error }, 'could not record the coupon notice');
  }
}

/** What the coupon service is told: the phone number, or the username without one. */
async function couponMsisdn(deps: Pick<Deps, 'db'>, userId: string): Promise<string> {
  const user = await deps.db
    .selectFrom('users')
    .select(['phone_number', 'username'])
    .where('id', '=', userId)
    .executeTakeFirstOrThrow();
  return user.phone_number ?? user.username;
}
