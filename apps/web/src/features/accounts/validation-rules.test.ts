import {
  detailsChangeSchema,
  loginSchema,
  registerByEmailSchema,
  registerByMsisdnSchema,
  validateOtpQuerySchema,
} from '@tunes/shared/accounts';
import { describe, expect, it } from 'vitest';
import type { z } from 'zod';
import commonEn from '@/i18n/locales/en/common.json';
import { finishAccountSchema } from './form-schemas';

/** The English text the site shows for a schema's first issue (keys live in common `validation`). */
function shownText(schema: z.ZodType, input: unknown): string | null {
  const result = schema.safeParse(input);
  if (result.success) return null;
  const key = result.error.issues[0]?.message.replace(/^validation\./, '') ?? '';
  const texts: Record<string, string> = commonEn.validation;
  return texts[key] ?? `untranslated: ${key}`;
}

/**
 * product.md §5: the server's request schemas and the site's forms are the same shared schemas, so the
 * rules agree; these cases pin the rules and the spec's English texts.
 */
describe('validation rules of product.md §5', () => {
  it('e-mail and login password (the login form uses the same emailSchema and loginPasswordSchema)', () => {
    expect(shownText(loginSchema, { username: 'a b@c.mn', password: 'x' })).toBe(
      'Please enter a valid email address.',
    );
    expect(shownText(loginSchema, { username: '', password: 'x' })).toBe('Please enter your email address.');
    expect(shownText(loginSchema, { username: 'a@c.mn', password: '' })).toBe('Password is required.');
    expect(shownText(loginSchema, { username: 'a@c.mn', password: 'x' })).toBeNull();
  });

  it('registration passwords: both required, at least 6 characters, matching', () => {
    const finish = (password: string, confirm: string) =>
      shownText(finishAccountSchema, { country: 'MN', password, confirm });
    expect(finish('', '')).toBe('Password and confirm password are required.');
    expect(finish('secret1', '')).toBe('Password and confirm password are required.');
    expect(finish('12345', '12345')).toBe('Password must be at least 6 characters.');
    expect(finish('secret1', 'secret2')).toBe('Passwords do not match.');
    expect(finish('secret1', 'secret1')).toBeNull();
    // The server refuses what the site refuses.
    const register = (Password: string) =>
      registerByEmailSchema.safeParse({ Email: 'a@c.mn', Password, Country: 'MN', Otp: '1234' }).success;
    expect(register('12345')).toBe(false);
    expect(register('')).toBe(false);
    expect(register('secret1')).toBe(true);
  });

  it('phone numbers: Mongolia exactly 8 digits, other countries by their own rules', () => {
    const phone = (CountryCode: number, PhoneNumber: string) =>
      shownText(registerByMsisdnSchema, { CountryCode, PhoneNumber, Token: '1234' });
    expect(phone(976, '8811223')).toBe("Can't authenticate. Phone number not valid.");
    expect(phone(976, '881122334')).toBe("Can't authenticate. Phone number not valid.");
    expect(phone(976, '88112233')).toBeNull();
    expect(phone(61, '412345678')).toBeNull();
    expect(phone(61, '12')).toBe("Can't authenticate. Phone number not valid.");
  });

  it('one-time codes are 4 digits', () => {
    for (const otp of ['123', '12345', '12a4', '']) {
      expect(shownText(validateOtpQuerySchema, { msisdn: '97688112233', otp })).toBe('Invalid code entered.');
    }
    expect(shownText(validateOtpQuerySchema, { msisdn: '97688112233', otp: '0123' })).toBeNull();
  });

  it('profile edit fields: at most 50 characters, a valid e-mail or none', () => {
    expect(shownText(detailsChangeSchema, { FirstName: 'x'.repeat(51) })).toBe('At most 50 characters.');
    expect(shownText(detailsChangeSchema, { LastName: 'x'.repeat(51) })).toBe('At most 50 characters.');
    expect(shownText(detailsChangeSchema, { FirstName: 'x'.repeat(50), Email: '' })).toBeNull();
    expect(shownText(detailsChangeSchema, { Email: 'not-an-email' })).toBe(
      'Please enter a valid email address.',
    );
  });
});
