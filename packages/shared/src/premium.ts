import { z } from 'zod';
import { INVOICE_STATUSES } from './premium-rules.js';
import { localizedNameSchema } from './profile.js';

export const merchantSchema = z
  .object({ MerchantId: z.number().int(), Name: z.string() })
  .describe('Merchant');
export type Merchant = z.infer<typeof merchantSchema>;

/** product.md §3 "Plan"; the shown user count is MaxSharedUsers + 1 and the price is Cost. */
export const planSchema = z
  .object({
    MerchantCode: z.string(),
    Offer: z.string(),
    Name: z.array(localizedNameSchema),
    Description: z.array(localizedNameSchema),
    Cost: z.number().int(),
    OriginalCost: z.number().int().nullable(),
    Currency: z.string(),
    DurationMonths: z.number().int(),
    AllowShare: z.boolean(),
    MaxSharedUsers: z.number().int(),
    /** The console's badge (Most popular) in both languages, shown as the card's highlight; null without one. */
    Badge: z.array(localizedNameSchema).nullable().optional(),
    /** A first-time trial's free days (trials.ts); 0 or absent: none. */
    TrialDays: z.number().int().optional(),
  })
  .describe('Plan');
export type Plan = z.infer<typeof planSchema>;

export const allPlansQuerySchema = z.object({
  merchantId: z.coerce.number().int().positive(),
});

/** A plan code as the site sends it: letters, digits, `_` and `-`. */
export const merchantCodeSchema = z
  .string()
  .trim()
  .min(1, 'is required')
  .max(64, 'is too long')
  .regex(/^[A-Za-z0-9_-]+$/, 'must be a plan code');

export const checkoutResponseSchema = z
  .object({
    url: z.string().describe('the gateway page with token and os=PC'),
    invoiceId: z.string(),
  })
  .describe('Checkout');
export type CheckoutResponse = z.infer<typeof checkoutResponseSchema>;

export const invoiceSchema = z
  .object({
    invoiceId: z.string(),
    status: z.enum(INVOICE_STATUSES),
    MerchantCode: z.string(),
    amount: z.number().int(),
    currency: z.string(),
    refunded: z
      .number()
      .int()
      .describe(
        'money taken for this invoice that could not be used (a second payment, a closed invoice): given back',
      ),
  })
  .describe('Invoice');
export type Invoice = z.infer<typeof invoiceSchema>;

export const subscriptionsQuerySchema = z.object({
  IsFutureActive: z
    .enum(['true', 'false'])
    .default('false')
    .transform((value) => value === 'true'),
});

/** `POST /api/cache/item` (product.md §7). */
export const cacheItemSchema = z
  .object({
    key: z.string().trim().min(1, 'is required').max(100, 'is too long'),
    value: z.string().max(1000, 'is too long'),
  })
  .strict();
