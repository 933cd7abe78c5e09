import { z } from 'zod';
import { merchantCodeSchema } from './premium.js';

/**
 * Offers (issue 38, docs/decisions/0044-offers.md): a percent or an amount off a plan's price for
 * N periods, for new or returning subscribers, by a link (`/premium?offer=CODE`) or a code, with a
 * limit on redemptions and an end date.
 */

export const OFFER_KINDS = ['percent', 'amount'] as const;
export type OfferKind = (typeof OFFER_KINDS)[number];

/** `new`: never had Premium; `returning`: had Premium before and has none now; `any`: either. */
export const OFFER_AUDIENCES = ['new', 'returning', 'any'] as const;
export type OfferAudience = (typeof OFFER_AUDIENCES)[number];

/** Why a listener may not redeem an offer that is otherwise open. */
export const OFFER_REASONS = ['not_new', 'not_returning', 'already_redeemed'] as const;
export type OfferReason = (typeof OFFER_REASONS)[number];

/**
 * The least an invoice with an offer costs, in MNT: QPay refuses an amount of 0 and the card
 * gateway's fee would exceed a few tögrög; an offer never makes a plan free (trials do that).
 */
export const OFFER_MIN_AMOUNT = 100;
export const OFFER_MAX_PERIODS = 12;
export const OFFER_MAX_REDEMPTIONS = 1_000_000;

export const OFFER_CODE_PATTERN = /^[A-Z0-9-]{4,32}$/;
export const OFFER_CODE_ERROR = 'An offer code is 4 to 32 letters, digits or dashes.';

/** A code as typed or linked: case does not matter, it is kept in capitals. */
export const offerCodeSchema = z.string().trim().toUpperCase().regex(OFFER_CODE_PATTERN, OFFER_CODE_ERROR);

/**
 * What an offer takes off a price of `cost`: a percent rounds down to the tögrög (the listener
 * pays the rounding), and nothing takes the price below OFFER_MIN_AMOUNT. The server prices the
 * same way in SQL (modules/offers/pricing.ts).
 */
export function offerDiscount(cost: number, offer: { kind: OfferKind; value: number }): number {
  const raw = offer.kind === 'percent' ? Math.floor((cost * offer.value) / 100) : offer.value;
  return Math.max(0, Math.min(raw, cost - OFFER_MIN_AMOUNT));
}

export const offerCodeParamsSchema = z.object({ code: offerCodeSchema });

/** `GET /api/offers/{code}`: the offer, what each plan it applies to costs with it, and for whom. */
export const publicOfferSchema = z
  .object({
    code: z.string(),
    kind: z.enum(OFFER_KINDS),
    value: z.number().int(),
    periods: z.number().int(),
    audience: z.enum(OFFER_AUDIENCES),
    endsAt: z.string().nullable().describe('ISO 8601'),
    prices: z.array(
      z.object({ MerchantCode: z.string(), Cost: z.number().int(), DiscountedCost: z.number().int() }),
    ),
    /** Whether the signed-in listener (a bearer token) may redeem it; without a token, true (checkout decides). */
    eligible: z.boolean(),
    reason: z.enum(OFFER_REASONS).optional(),
  })
  .describe('Offer');
export type PublicOffer = z.infer<typeof publicOfferSchema>;

/** The profile's billing view: the offer the listener's plan renews with. */
export const billingOfferSchema = z
  .object({
    code: z.string(),
    kind: z.enum(OFFER_KINDS),
    value: z.number().int(),
    /** Renewals still priced with the offer. */
    periodsLeft: z.number().int(),
    /** What the next renewal costs (the full price once no period is left). */
    nextAmount: z.number().int(),
  })
  .describe('BillingOffer');
export type BillingOffer = z.infer<typeof billingOfferSchema>;

const wholeNumber = (what: string, min: number, max: number) =>
  z
    .number({ error: `Give ${what}, ${min} to ${max}.` })
    .int(`Give ${what} as a whole number, ${min} to ${max}.`)
    .min(min, `Give ${what}, ${min} to ${max}.`)
    .max(max, `Give ${what}, ${min} to ${max}.`);

/** `POST /api/admin/offers` (docs/console-api.md "Offers"). `endsAt` must be in the future (checked by the server's clock). */
export const offerCreateSchema = z
  .object({
    code: offerCodeSchema,
    kind: z.enum(OFFER_KINDS),
    /** A percent (1–99: an offer never makes a plan free) or whole tögrög off. */
    value: wholeNumber('the discount', 1, 10_000_000),
    periods: wholeNumber('the number of periods', 1, OFFER_MAX_PERIODS),
    audience: z.enum(OFFER_AUDIENCES),
    /** The plans' MerchantCodes it applies to; absent or null: every plan on sale. */
    plans: z.array(merchantCodeSchema).min(1, 'Give at least one plan, or none for all.').max(50).nullish(),
    maxRedemptions: wholeNumber('the redemption limit', 1, OFFER_MAX_REDEMPTIONS),
    endsAt: z.iso.datetime({ offset: true, error: 'Give the end as an ISO 8601 date and time.' }),
  })
  .strict()
  .superRefine((offer, ctx) => {
    if (offer.kind === 'percent' && offer.value > 99) {
      ctx.addIssue({ code: 'custom', path: ['value'], message: 'Give a percent from 1 to 99.' });
    }
  });
export type OfferCreate = z.infer<typeof offerCreateSchema>;

/** One offer in the console's list. */
export const consoleOfferSchema = z
  .object({
    id: z.string(),
    code: z.string(),
    kind: z.enum(OFFER_KINDS),
    value: z.number().int(),
    periods: z.number().int(),
    audience: z.enum(OFFER_AUDIENCES),
    plans: z.array(z.string()).nullable(),
    maxRedemptions: z.number().int(),
    /** Held now: reserved by an open checkout or redeemed by a payment. */
    redeemed: z.number().int(),
    endsAt: z.string(),
    endedAt: z.string().nullable(),
    createdAt: z.string(),
  })
  .describe('ConsoleOffer');
export type ConsoleOffer = z.infer<typeof consoleOfferSchema>;
export const offerIdParamsSchema = z.object({ id: z.uuid() });
