import { z } from 'zod';
import {
  EMAIL_MAX_LENGTH,
  OTP_LENGTH,
  PASSWORD_MAX_LENGTH,
  PASSWORD_MIN_LENGTH,
  PROFILE_FIELD_MAX_LENGTH,
  VOUCHER_MAX_LENGTH,
} from './constants.js';

/**
 * Field rules of product product.md §5, used by both the server (request schemas) and the site (forms).
 * Messages are translation keys of the site's `validation` section, never user-facing text.
 */

/**
 * `{email}` with no spaces, as the spec puts it: a local part, `@`, and dot-separated labels.
 * Linear on any input: no part can match what the next one must (labels exclude the dot), so
 * a failed match never backtracks more than once per character (security.md). Schemas still check
 * the length first.
 */
export const EMAIL_PATTERN = /^[^\s@]+@[^\s@.]+(?:\.[^\s@.]+)+$/;
export const VOUCHER_PATTERN = /^[A-Za-z0-9-]+$/;
export const OTP_PATTERN = /^\d{4}$/;
/** "+ followed by 11 digits" (product.md §5): a Mongolian number with its dial code. */
export { formatPhoneForDisplay, MONGOLIAN_PHONE_PATTERN, toMsisdn } from './phone-number.js';

export const FULL_MOBILE_PATTERN = /^\+\d{11}$/;

export const emailSchema = z
  .string({ error: 'validation.email-required' })
  .trim()
  .min(1, 'validation.email-required')
  // `abort`: a value over the length is refused before any pattern sees it.
  .max(EMAIL_MAX_LENGTH, { message: 'validation.enter-valid-email', abort: true })
  .regex(EMAIL_PATTERN, 'validation.enter-valid-email')
  .transform((email) => email.toLowerCase());

export const loginPasswordSchema = z
  .string({ error: 'validation.password-required' })
  .min(1, 'validation.password-required')
  .max(PASSWORD_MAX_LENGTH, 'validation.password-too-long');

export const newPasswordSchema = z
  .string({ error: 'validation.password-and-confirm-required' })
  .min(1, 'validation.password-and-confirm-required')
  .min(PASSWORD_MIN_LENGTH, 'validation.password-min-length')
  .max(PASSWORD_MAX_LENGTH, 'validation.password-too-long');

export const otpSchema = z
  .string({ error: 'validation.invalid-code' })
  .max(OTP_LENGTH, { message: 'validation.invalid-code', abort: true })
  .regex(OTP_PATTERN, 'validation.invalid-code')
  .length(OTP_LENGTH, 'validation.invalid-code');

export const voucherCodeSchema = z
  .string({ error: 'validation.voucher-format' })
  .trim()
  .min(1, 'validation.voucher-format')
  .max(VOUCHER_MAX_LENGTH, { message: 'validation.voucher-format', abort: true })
  .regex(VOUCHER_PATTERN, 'validation.voucher-format');

export const profileFieldSchema = z
  .string()
  .trim()
  .max(PROFILE_FIELD_MAX_LENGTH, { message: 'validation.max-50', abort: true });

/** Country dial code: 1 to 4 digits, Mongolia's 976 by default. */
export const dialCodeSchema = z.coerce
  .number({ error: 'validation.country-code' })
  .int('validation.country-code')
  .min(1, 'validation.country-code')
  .max(9999, 'validation.country-code');
