import { isValidPhoneNumber, parsePhoneNumberFromString } from 'libphonenumber-js';
import { MONGOLIA_DIAL_CODE, MONGOLIAN_PHONE_LENGTH } from './constants.js';
import { MONGOLIAN_PHONE_PATTERN } from './phone-number.js';

/** Checks of phone numbers against the world's numbering plans (libphonenumber-js's metadata). */

/**
 * A phone number of `countryCode`: Mongolia needs exactly 8 digits (product.md §5); other countries
 * are checked with libphonenumber-js.
 */
export function isValidPhone(countryCode: number | string, phoneNumber: string): boolean {
  const code = String(countryCode);
  if (code === MONGOLIA_DIAL_CODE) return MONGOLIAN_PHONE_PATTERN.test(phoneNumber);
  if (!/^\d{1,4}$/.test(code) || !/^\d{4,14}$/.test(phoneNumber)) return false;
  try {
    return isValidPhoneNumber(`+${code}${phoneNumber}`);
  } catch {
    return false;
  }
}

/** A full number (country code then number, e.g. "97688112233") that one can send a code to. */
export function isValidMsisdn(msisdn: string): boolean {
  if (!/^\d{6,15}$/.test(msisdn)) return false;
  if (msisdn.startsWith(MONGOLIA_DIAL_CODE)) {
    return msisdn.length === MONGOLIA_DIAL_CODE.length + MONGOLIAN_PHONE_LENGTH;
  }
  try {
    return isValidPhoneNumber(`+${msisdn}`);
  } catch {
    return false;
  }
}

/** The country dial code a full number starts with (976 for "97688112233"), if it is known. */
export function dialCodeOfMsisdn(msisdn: string): number | null {
  if (msisdn.startsWith(MONGOLIA_DIAL_CODE)) return Number(MONGOLIA_DIAL_CODE);
  const parsed = parsePhoneNumberFromString(`+${msisdn}`);
  return parsed ? Number(parsed.countryCallingCode) : null;
}
