import { z } from 'zod';
import type { PREMIUM_OFFERS } from './premium-rules.js';
import { TRIAL_DAYS_MAX, trialDaysSchema } from './trials.js';

/**
 * The console's plan calls (docs/console-api.md "Plans"): the request schemas the server checks
 * and the console's form uses.
 */

/** A plan's seats: the owner's included (1 alone, 2 Duo, up to 4 Family). */
export const PLAN_SEATS = { min: 1, max: 6 } as const;
/** A plan runs one month or a year. */
export const PLAN_PERIODS = [1, 12] as const;
export const PLAN_PRICE_MAX = 10_000_000;
export const PLAN_NAME_MAX = 100;
export const PLAN_DESCRIPTION_MAX = 500;
export const PLAN_BADGE_MAX = 40;
export const PLANS_MAX = 100;
/** product.md §1 "30-day notice of price changes": a current subscriber's renewal keeps the old price until then. */
export const PRICE_NOTICE_DAYS = 30;
/** The second message of a price change goes this many days before its first charge. */
export const PRICE_REMINDER_DAYS = 7;

/**
 * The spec's three kinds as /premium sells them (product.md §1, §2, §9): one month, Premium one
 * account, Duo two, Family up to four. Other offers (a year's plan, six seats) are kept but not
 * listed on /premium.
 */
export const OFFER_RULES: Record<(typeof PREMIUM_OFFERS)[number], { minSeats: number; maxSeats: number }> = {
  premium: { minSeats: 1, maxSeats: 1 },
  'premium-duo': { minSeats: 2, maxSeats: 2 },
  'premium-family': { minSeats: 2, maxSeats: 4 },
};

/**
 * What each refusal says, in English for the API; the console shows its own words for each
 * (`plans.errors.<key>`).
 */
export const PLAN_MESSAGES = {
  code: 'must be capital letters, digits and _ (PREMIUM_12M), at most 40',
  offer: 'must be lower-case letters, digits and - (premium-family)',
  name: `must be given, at most ${PLAN_NAME_MAX} characters`,
  description: `must be at most ${PLAN_DESCRIPTION_MAX} characters`,
  price: `must be a whole number of tögrög from 1 to ${PLAN_PRICE_MAX}`,
  months: 'must be 1 or 12',
  seats: `must be ${PLAN_SEATS.min} to ${PLAN_SEATS.max} accounts, the owner included`,
  offerMonths: 'must be 1: /premium sells the premium, duo and family offers by the month',
  seatsPremium: 'must be 1 for the premium offer',
  seatsDuo: 'must be 2 for the premium-duo offer',
  seatsFamily: 'must be 2 to 4 for the premium-family offer',
  badge: `must be at most ${PLAN_BADGE_MAX} characters`,
  badgeBoth: 'must be given in both languages, or in neither',
  orderRepeats: 'must name each plan once',
  /** The same sentence as trialDaysSchema's (trials.ts). */
  trialDays: `must be a whole number of days from 0 to ${TRIAL_DAYS_MAX}`,
} as const;
export type PlanMessageKey = keyof typeof PLAN_MESSAGES;

const SEATS_MESSAGE: Record<keyof typeof OFFER_RULES, PlanMessageKey> = {
  premium: 'seatsPremium',
  'premium-duo': 'seatsDuo',
  'premium-family': 'seatsFamily',
};

const text = (max: number, message: string) =>
  z.string({ error: message }).trim().min(1, message).max(max, message);

const price = z
  .number({ error: PLAN_MESSAGES.price })
  .int(PLAN_MESSAGES.price)
  .min(1, PLAN_MESSAGES.price)
  .max(PLAN_PRICE_MAX, PLAN_MESSAGES.price);

export const planCodeSchema = z
  .string({ error: PLAN_MESSAGES.code })
  .trim()
  .min(1, PLAN_MESSAGES.code)
  .max(40, PLAN_MESSAGES.code)
  .regex(/^[A-Z0-9][A-Z0-9_]*$/, PLAN_MESSAGES.code);

export const planBadgeSchema = z
  .object({
    en: z.string().trim().max(PLAN_BADGE_MAX, PLAN_MESSAGES.badge),
    mn: z.string().trim().max(PLAN_BADGE_MAX, PLAN_MESSAGES.badge),
  })
  .strict()
  .refine((badge) => (badge.en === '') === (badge.mn === ''), {
    message: PLAN_MESSAGES.badgeBoth,
    path: ['mn'],
  });

const description = z.string().trim().max(PLAN_DESCRIPTION_MAX, PLAN_MESSAGES.description);

export const planCreateSchema = z
  .object({
    code: planCodeSchema,
    offer: z.string({ error: PLAN_MESSAGES.offer }).regex(/^[a-z0-9][a-z0-9-]{0,39}$/, PLAN_MESSAGES.offer),
    nameEn: text(PLAN_NAME_MAX, PLAN_MESSAGES.name),
    nameMn: text(PLAN_NAME_MAX, PLAN_MESSAGES.name),
    descriptionEn: description,
    descriptionMn: description,
    price,
    months: z.literal(PLAN_PERIODS, { error: PLAN_MESSAGES.months }),
    seats: z
      .number({ error: PLAN_MESSAGES.seats })
      .int(PLAN_MESSAGES.seats)
      .min(PLAN_SEATS.min, PLAN_MESSAGES.seats)
      .max(PLAN_SEATS.max, PLAN_MESSAGES.seats),
    /** A first-time trial's free days; 0 (the default): none. */
    trialDays: trialDaysSchema.default(0),
  })
  .strict()
  .superRefine((plan, ctx) => {
    const offer = plan.offer as keyof typeof OFFER_RULES;
    const rule = OFFER_RULES[offer];
    if (!rule) return;
    if (plan.months !== 1) {
      ctx.addIssue({ code: 'custom', path: ['months'], message: PLAN_MESSAGES.offerMonths });
    }
    if (plan.seats < rule.minSeats || plan.seats > rule.maxSeats) {
      ctx.addIssue({ code: 'custom', path: ['seats'], message: PLAN_MESSAGES[SEATS_MESSAGE[offer]] });
    }
  });
export type PlanCreate = z.infer<typeof planCreateSchema>;
export type PlanCreateInput = z.input<typeof planCreateSchema>;

export const planPriceSchema = z.object({ price }).strict();
export const planOrderSchema = z
  .object({ codes: z.array(planCodeSchema).min(1).max(PLANS_MAX) })
  .strict()
  .refine((order) => new Set(order.codes).size === order.codes.length, {
    message: PLAN_MESSAGES.orderRepeats,
    path: ['codes'],
  });
export const planBadgeRequestSchema = z.object({ badge: planBadgeSchema }).strict();
/** `PUT /api/admin/plans/:code/trial`: the plan's free days for a first-time trial (0: none). */
export const planTrialRequestSchema = z.object({ trialDays: trialDaysSchema }).strict();

/** A plan as the console lists it. */
export interface ConsolePlan {
  code: string;
  offer: string;
  name: { en: string; mn: string };
  price: number;
  /** The price before a discount, struck through on /premium; null without one. */
  originalPrice: number | null;
  currency: string;
  months: number;
  seats: number;
  onSale: boolean;
  /** Listed on /premium: on sale, MNT, an offer /premium sells. */
  listed: boolean;
  badge: { en: string; mn: string } | null;
  /** A first-time trial's free days; 0: none. */
  trialDays: number;
  order: number;
  /** Current subscribers renewing on the plan. */
  subscribers: number;
  /** The latest price change still giving notice: current subscribers pay the new price from their first renewal on or after `takesEffectAt`. */
  pendingPrice: {
    previous: number;
    price: number;
    changedAt: string;
    takesEffectAt: string;
    notices: number;
  } | null;
}
