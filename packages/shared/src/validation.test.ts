import { describe, expect, it } from 'vitest';
import { emailSchema, formatPhoneForDisplay, toMsisdn, voucherCodeSchema } from './validation.js';

describe('shared validation', () => {
  it('builds the full number from country code and number', () => {
    expect(toMsisdn(976, '88112233')).toBe('97688112233');
    expect(toMsisdn('1', '0012')).toBe('10012');
  });

  it('shows Mongolian numbers as +976 and a space', () => {
    expect(formatPhoneForDisplay('97688112233')).toBe('+976 88112233');
    expect(formatPhoneForDisplay('61412345678')).toBe('61412345678');
  });

  it('rejects e-mail addresses with spaces', () => {
    expect(emailSchema.safeParse('a b@c.mn').success).toBe(false);
    expect(emailSchema.parse(' Bat@Example.MN ')).toBe('bat@example.mn');
  });

  it('accepts only letters, digits and hyphens up to 15 in a voucher', () => {
    expect(voucherCodeSchema.safeParse('ABC-123').success).toBe(true);
    expect(voucherCodeSchema.safeParse('ABC_123').success).toBe(false);
    expect(voucherCodeSchema.safeParse('A'.repeat(16)).success).toBe(false);
  });
});

describe('emailSchema on a hostile length', () => {
  it('refuses a value over the length before its pattern runs (one issue, the length)', () => {
    const longEmail = `${'a'.repeat(100)}@${'a.'.repeat(30_000)}`;
    const result = emailSchema.safeParse(longEmail);
    expect(result.success).toBe(false);
    // Had the pattern run, it would have added an `invalid_format` issue of its own.
    expect(result.error?.issues.map((issue) => issue.code)).toEqual(['too_big']);
  });
});
