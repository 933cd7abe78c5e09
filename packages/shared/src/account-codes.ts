import { API_ERROR_CODES } from './error-codes.js';

/**
 * Rules and answer codes of the account calls, without schemas: what the site needs at first
 * paint. `accounts.ts` re-exports them beside its schemas.
 */

/** One-time code rules of security.md. */
export const OTP_TTL_SECONDS = 5 * 60;
export const OTP_MAX_WRONG_TRIES = 5;
export const OTP_RESEND_SECONDS = 30;
/** Codes one number or address may be sent per hour. */
export const OTP_HOURLY_CAP = 5;
/** Password-reset links stay usable this long, once. */
export const PASSWORD_RESET_TTL_SECONDS = 60 * 60;
/** Silent-login HMAC tokens are valid this long (product.md §11). */
export const HMAC_TOKEN_TTL_SECONDS = 5 * 60;

/**
 * `error` of `GET /api/users/validateotp`: null or "610" mean the code is good (product.md §5);
 * anything else is an invalid code: "612" has expired and "613" is locked after too many wrong
 * tries, so only a new code helps.
 */
export const OTP_RESULT = {
  alreadyValidated: '610',
  wrongCode: '611',
  expired: '612',
  tooManyTries: '613',
} as const;

/**
 * `error` of every other answer that refuses a code because it is locked after too many wrong
 * tries (the token grant, registration, e-mail and phone change, account deletion), so the site
 * can offer a new code instead of saying the code is wrong.
 */
export const CODE_LOCKED_ERROR = API_ERROR_CODES.codeLocked;

/** Error codes of the token endpoint (api.md, product.md §8). */
export const GRANT_ERRORS = {
  notRegistered: API_ERROR_CODES.grantNotRegistered,
  cannotAuthenticate: API_ERROR_CODES.grantCannotAuthenticate,
  wrongCode: API_ERROR_CODES.grantWrongCode,
  invalidGrant: API_ERROR_CODES.invalidGrant,
  unsupportedGrantType: API_ERROR_CODES.unsupportedGrantType,
} as const;

/** Registration countries (product.md §2): Mongolia, and AU labelled 'Rest of World'. */
export const REGISTRATION_COUNTRIES = ['MN', 'AU'] as const;

/** Error codes of the e-mail and phone changes that the site tells apart. */
export const CHANGE_ERRORS = {
  invalidCode: API_ERROR_CODES.invalidCode,
  noPendingChange: API_ERROR_CODES.noPendingChange,
  emailInUse: API_ERROR_CODES.emailInUse,
  phoneInUse: API_ERROR_CODES.phoneInUse,
} as const;
