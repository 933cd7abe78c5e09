import { z } from 'zod';
import { voucherCodeSchema } from './validation.js';

/** Voucher redemption (product.md §4/§7/§8). */

export const redeemVoucherQuerySchema = z.object({ code: voucherCodeSchema });

export const redeemedVoucherSchema = z
  .object({
    SubscriptionId: z.string(),
    StartDate: z.string().describe('ISO 8601'),
    EndDate: z.string().describe('ISO 8601'),
    Message: z.string(),
  })
  .describe('RedeemedVoucher');

export type RedeemedVoucher = z.infer<typeof redeemedVoucherSchema>;

/** Wrong codes allowed within VOUCHER_LOCKOUT_WINDOW before redeeming is locked. */
export const VOUCHER_MAX_FAILURES = 5;
/** Both the window in which failures count and how long the lockout lasts: one hour. */
export const VOUCHER_LOCKOUT_SECONDS = 60 * 60;

export { VOUCHER_ERRORS } from './voucher-codes.js';

/** product.md §8 texts; the site shows its translations. */
export const VOUCHER_ACTIVATED_MESSAGE = 'Voucher successfully activated';
export const VOUCHER_INVALID_MESSAGE = 'Voucher is not valid.';
export const VOUCHER_ALREADY_SUBSCRIBED_MESSAGE = 'You already an active subscription';

/** Operator-made codes: groups of 4 from an alphabet without look-alikes (0/O, 1/I/L). */
export const VOUCHER_ALPHABET = 'ABCDEFGHJKMNPQRSTUVWXYZ23456789';

/** Dev/admin request to create vouchers (mirrors `npm run admin -- vouchers:create`). */
export const createVouchersSchema = z.object({
  package: z.string().min(1, 'Give the package merchant code.').max(64),
  days: z.coerce
    .number({ error: 'Give the number of days each voucher grants, 1 to 3660.' })
    .int('Give a whole number of days, 1 to 3660.')
    .min(1, 'Give a whole number of days, 1 to 3660.')
    .max(3660, 'Give a whole number of days, 1 to 3660.'),
  count: z.coerce
    .number({ error: 'Give how many vouchers to make, 1 to 10000.' })
    .int('Give a whole number of vouchers, 1 to 10000.')
    .min(1, 'Give a whole number of vouchers, 1 to 10000.')
    .max(10_000, 'Give a whole number of vouchers, 1 to 10000.'),
  expiresAt: z.iso.datetime({ offset: true }).optional(),
});

export type CreateVouchersInput = z.infer<typeof createVouchersSchema>;
