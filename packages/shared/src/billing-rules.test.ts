import { describe, expect, it } from 'vitest';
import { companyRegistrySchema } from './billing.js';
import { companyRegistryOf } from './billing-rules.js';

describe('a company registry number', () => {
  it('is 7 digits, trimmed', () => {
    expect(companyRegistryOf('1234567')).toBe('1234567');
    expect(companyRegistryOf(' 1234567 ')).toBe('1234567');
  });

  it('is nothing else', () => {
    for (const typed of ['', '123456', '12345678', '123456a', '１２３４５６７', '123 4567'])
      expect(companyRegistryOf(typed), typed).toBeUndefined();
  });

  it('reads the same as the API schema', () => {
    for (const typed of ['1234567', ' 7654321', '123456', 'abcdefg', ''])
      expect(companyRegistryOf(typed)).toBe(companyRegistrySchema.safeParse(typed).data);
  });
});
