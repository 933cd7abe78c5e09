import { describe, expect, it } from 'vitest';
import { toVoucherInput } from './voucher-input';

describe('voucher input while typing', () => {
  it('keeps letters, digits and hyphens, at most 15 characters', () => {
    expect(toVoucherInput('ab c_d-12!')).toBe('abcd-12');
    expect(toVoucherInput('ABCD-EFGH-JKMN-PQRS')).toBe('ABCD-EFGH-JKMN-');
    expect(toVoucherInput('Ёж-7')).toBe('-7');
  });
});
