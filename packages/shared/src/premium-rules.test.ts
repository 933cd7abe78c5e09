import { describe, expect, it } from 'vitest';
import { discountPercent, localized, plansForSale } from './premium-rules.js';

const plan = (Offer: string, Currency: string, Cost = 6900, OriginalCost: number | null = null) => ({
  Offer,
  Currency,
  Cost,
  OriginalCost,
});

describe('premium rules', () => {
  it('lists only MNT plans of the premium, duo and family offers', () => {
    const plans = [
      plan('premium', 'MNT'),
      plan('premium', 'USD'),
      plan('premium-duo', 'MNT'),
      plan('premium-annual', 'MNT'),
      plan('premium-family', 'MNT'),
    ];
    expect(plansForSale(plans).map((p) => `${p.Offer}/${p.Currency}`)).toEqual([
      'premium/MNT',
      'premium-duo/MNT',
      'premium-family/MNT',
    ]);
  });

  it('gives the spec discounts: Duo -28 %, Family -35 %, none without an old price', () => {
    expect(discountPercent({ Cost: 9900, OriginalCost: 13800 })).toBe(28);
    expect(discountPercent({ Cost: 17900, OriginalCost: 27600 })).toBe(35);
    expect(discountPercent({ Cost: 6900, OriginalCost: null })).toBeNull();
    expect(discountPercent({ Cost: 6900, OriginalCost: 6900 })).toBeNull();
  });

  it('reads a localized name in the language, else the first value', () => {
    const names = [
      { Language: 'en', Value: 'Premium' },
      { Language: 'mn', Value: 'Премиум' },
    ];
    expect(localized(names, 'mn')).toBe('Премиум');
    expect(localized(names, 'de')).toBe('Premium');
    expect(localized([], 'en')).toBe('');
  });
});
