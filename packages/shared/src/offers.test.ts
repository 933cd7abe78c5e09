import { describe, expect, it } from 'vitest';
import { OFFER_MIN_AMOUNT, offerCodeSchema, offerCreateSchema, offerDiscount } from './offers.js';

describe('offer pricing', () => {
  it('rounds a percent down to the tögrög and never prices below the floor', () => {
    expect(offerDiscount(6900, { kind: 'percent', value: 33 })).toBe(2277);
    expect(offerDiscount(999, { kind: 'percent', value: 50 })).toBe(499);
    expect(offerDiscount(6900, { kind: 'amount', value: 2900 })).toBe(2900);
    expect(6900 - offerDiscount(6900, { kind: 'amount', value: 10_000 })).toBe(OFFER_MIN_AMOUNT);
    expect(offerDiscount(50, { kind: 'percent', value: 50 })).toBe(0);
  });

  it('reads codes in any case and refuses other characters', () => {
    expect(offerCodeSchema.parse(' spring-25 ')).toBe('SPRING-25');
    expect(offerCodeSchema.safeParse('abc').success).toBe(false);
    expect(offerCodeSchema.safeParse('SPRING_25').success).toBe(false);
  });

  it('refuses a percent of 100 or more, naming the value', () => {
    const parsed = offerCreateSchema.safeParse({
      code: 'FREE',
      kind: 'percent',
      value: 100,
      periods: 1,
      audience: 'any',
      maxRedemptions: 1,
      endsAt: '2030-01-01T00:00:00Z',
    });
    expect(parsed.success).toBe(false);
    expect(parsed.error?.issues[0]?.path).toEqual(['value']);
  });
});
