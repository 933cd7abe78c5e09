/**
 * Answer codes of the voucher call, without schemas: what the site needs at first paint.
 * `vouchers.ts` re-exports them beside its schemas.
 */

export const VOUCHER_ERRORS = {
  invalid: 'voucher_invalid',
  alreadySubscribed: 'already_subscribed',
  locked: 'too_many_requests',
} as const;
