import { API_ERROR_CODES } from './error-codes.js';

/**
 * Answer codes of the voucher call, without schemas: what the site needs at first paint.
 * `vouchers.ts` re-exports them beside its schemas.
 */

export const VOUCHER_ERRORS = {
  invalid: API_ERROR_CODES.voucherInvalid,
  alreadySubscribed: API_ERROR_CODES.alreadySubscribed,
  locked: API_ERROR_CODES.tooManyRequests,
} as const;
