import { describe, expect, it } from 'vitest';
import { ApiError } from '@/lib/api-error';
import { offerRefusalKey } from './api/check-offer';
import { offerPriceOf } from './components/use-offer-code';
import { normalOfferCode, OFFER_CODE_PATTERN, type OfferCheck } from './types';

const offer: OfferCheck = {
  code: 'HALF-2',
  kind: 'percent',
  value: 50,
  periods: 2,
  audience: 'new',
  endsAt: null,
  prices: [
    { MerchantCode: 'PREMIUM_1M', Cost: 6900, DiscountedCost: 3450 },
    { MerchantCode: 'PREMIUM_12M', Cost: 69000, DiscountedCost: 69000 },
  ],
  eligible: true,
};

describe('offers on /premium', () => {
  it('prices only the plans the offer takes something off', () => {
    expect(offerPriceOf(offer, 'PREMIUM_1M')).toBe(3450);
    expect(offerPriceOf(offer, 'PREMIUM_12M')).toBeNull();
    expect(offerPriceOf(offer, 'PREMIUM_DUO_1M')).toBeNull();
    expect(offerPriceOf(null, 'PREMIUM_1M')).toBeNull();
  });

  it("words each refusal of a code by the server's error code", () => {
    const refusal = (status: number, error: string) => new ApiError(status, { error }, error);
    expect(offerRefusalKey(refusal(410, 'offer_ended'))).toBe('offer.refused.ended');
    expect(offerRefusalKey(refusal(409, 'offer_exhausted'))).toBe('offer.refused.exhausted');
    expect(offerRefusalKey(refusal(404, 'offer_not_found'))).toBe('offer.refused.not-found');
    expect(offerRefusalKey(refusal(404, 'not_found'))).toBe('offer.refused.not-found');
    expect(offerRefusalKey(refusal(429, 'too_many_requests'))).toBe('offer.refused.too-many');
    expect(offerRefusalKey(refusal(503, 'unavailable'))).toBe('offer.refused.failed');
  });

  it('takes a code in any case, as the server does', () => {
    expect(normalOfferCode(' half-2 ')).toBe('HALF-2');
    expect(OFFER_CODE_PATTERN.test('HALF-2')).toBe(true);
    expect(OFFER_CODE_PATTERN.test('NO')).toBe(false);
    expect(OFFER_CODE_PATTERN.test('HALF 2')).toBe(false);
  });
});
