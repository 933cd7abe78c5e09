import { PAYMENT_CURRENCY } from '@tunes/shared/constants';
import { offerDiscount, type PublicOffer } from '@tunes/shared/offers';
import { PREMIUM_OFFERS } from '@tunes/shared/premium-rules';
import type { Deps } from '../../deps.js';
import { LIMITS } from '../../lib/limits.js';
import { enforce } from '../../lib/throttle.js';
import { findOfferByCode, ineligibility, offerClosedError } from './redemption.js';

/**
 * `GET /api/offers/{code}`: an open offer, what each plan on sale it covers costs with it, and
 * (with a bearer token) whether this listener may redeem it. An unknown code answers 404, an
 * ended one 410, a fully redeemed one 409; a client address may look up `offerLookupsFromClient`.
 */
export async function publicOffer(
  deps: Pick<Deps, 'db' | 'clock' | 'throttle'>,
  code: string,
  userId: string | null,
  clientAddress: string,
): Promise<PublicOffer> {
  await enforce(deps.throttle, `offer-lookups:${clientAddress}`, LIMITS.offerLookupsFromClient);
  const now = deps.clock.now();
  const offer = await findOfferByCode(deps.db, code);
  const closed = offerClosedError(offer, now);
  if (closed || !offer) throw closed;
  let plans = deps.db
    .selectFrom('packages')
    .select(['id', 'merchant_code', 'cost'])
    .where('is_active', '=', true)
    .where('currency', '=', PAYMENT_CURRENCY)
    .where('offer', 'in', [...PREMIUM_OFFERS])
    .orderBy('sort_order')
    .orderBy('id');
  if (offer.package_ids) plans = plans.where('id', 'in', offer.package_ids.length ? offer.package_ids : [-1]);
  const rows = await plans.execute();
  const reason = userId ? await ineligibility(deps.db, offer, userId, now) : null;
  return {
    code: offer.code,
    kind: offer.kind,
    value: offer.value,
    periods: offer.periods,
    audience: offer.audience,
    endsAt: offer.ends_at.toISOString(),
    prices: rows.map((row) => ({
      MerchantCode: row.merchant_code,
      Cost: row.cost,
      DiscountedCost: row.cost - offerDiscount(row.cost, offer),
    })),
    eligible: reason === null,
    ...(reason ? { reason } : {}),
  };
}
