import { MONGOLIA_DIAL_CODE, MONGOLIAN_PHONE_LENGTH } from './constants.js';

/**
 * Phone-number helpers without a schema library or the world's numbering plans, so the site's
 * first paint can use them (`phone-rules.ts` holds the checks that need libphonenumber-js).
 */

export const MONGOLIAN_PHONE_PATTERN = /^\d{8}$/;

/**
 * The full number is the country code followed by the number, read as an integer (product.md §5),
 * e.g. 976 + 88112233 → "97688112233".
 */
export function toMsisdn(countryCode: number | string, phoneNumber: string): string {
  const digits = `${countryCode}${phoneNumber}`.replace(/\D/g, '');
  return BigInt(digits || '0').toString();
}

/** A shared user's phone "97688112233" is shown as "+976 88112233" (product.md §3). */
export function formatPhoneForDisplay(username: string): string {
  if (
    username.startsWith(MONGOLIA_DIAL_CODE) &&
    username.length === MONGOLIA_DIAL_CODE.length + MONGOLIAN_PHONE_LENGTH
  ) {
    return `+${MONGOLIA_DIAL_CODE} ${username.slice(MONGOLIA_DIAL_CODE.length)}`;
  }
  return username;
}
