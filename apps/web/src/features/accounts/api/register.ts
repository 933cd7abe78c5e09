import type { Language } from '@tunes/shared/constants';
import { apiRequest } from '@/lib/api-client';

/**
 * `POST /api/users/registerbymsisdn` (product.md §3 "Mobile registration"), with the site's
 * language: the account's, so every message to it comes in the language the listener reads.
 */
export function registerByMsisdn(
  phoneNumber: string,
  countryCode: number,
  token: string,
  language: Language,
) {
  return apiRequest<{ UserId: string }>('/api/users/registerbymsisdn', {
    method: 'POST',
    json: { PhoneNumber: phoneNumber, CountryCode: countryCode, Token: token, Language: language },
    errors: { messages: { other: 'accounts:messages.registration-failed' } },
  });
}

export interface EmailRegistration {
  email: string;
  password: string;
  country: 'MN' | 'AU';
  otp: string;
  /** The site's language: the account's, for every message it is sent (issue 37). */
  language: Language;
}

/**
 * `POST /api/users/register` (product.md §3 "E-mail registration": Username equals Email; Language
 * the site's, where product.md fixed 'en' and so wrote every later message in English, issue 37);
 * a failure reads 'Registration failed…' and toasts 'error-creating-account' (product.md §8).
 */
export function registerByEmail({ email, password, country, otp, language }: EmailRegistration) {
  return apiRequest<{ UserId: string }>('/api/users/register', {
    method: 'POST',
    json: {
      Email: email,
      Username: email,
      Password: password,
      Country: country,
      Language: language,
      Otp: otp,
    },
    errors: {
      messages: { other: 'accounts:messages.registration-failed' },
      toast: { other: 'accounts:messages.error-creating-account' },
    },
  });
}
