import { describe, expect, it } from 'vitest';
import { formatPrice } from './format';

describe('formatPrice', () => {
  it('writes the spec prices in English as 6,900 ₮', () => {
    expect(formatPrice(6900, 'MNT', 'en')).toBe('6,900 ₮');
    expect(formatPrice(9900, 'MNT', 'en')).toBe('9,900 ₮');
    expect(formatPrice(17900, 'MNT', 'en')).toBe('17,900 ₮');
  });

  it('groups digits the Mongolian way in Mongolian', () => {
    expect(formatPrice(17900, 'MNT', 'mn')).toBe(`${new Intl.NumberFormat('mn').format(17900)} ₮`);
  });
});
