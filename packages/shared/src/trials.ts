import { z } from 'zod';
import { DAY_MS } from './constants.js';
import { errorBodySchema } from './errors.js';
import { merchantCodeSchema } from './premium.js';

/**
 * First-time trials (docs/decisions/0045-trials.md): a plan's free days, once per account, phone
 * number and card, started with a saved card or a QPay renewal link.
 */

/** A plan's free days: 0 (no trial) to 90. */
export const TRIAL_DAYS_MAX = 90;
export const trialDaysSchema = z
  .number({ error: `must be a whole number of days from 0 to ${TRIAL_DAYS_MAX}` })
  .int(`must be a whole number of days from 0 to ${TRIAL_DAYS_MAX}`)
  .min(0, `must be a whole number of days from 0 to ${TRIAL_DAYS_MAX}`)
  .max(TRIAL_DAYS_MAX, `must be a whole number of days from 0 to ${TRIAL_DAYS_MAX}`);

/** When a trial started at `start` with `days` free days ends. */
export const trialEnd = (start: Date, days: number): Date => new Date(start.getTime() + days * DAY_MS);

/** How a trial renews when it ends: the saved card is charged, or a QPay link is sent. */
export const TRIAL_METHODS = ['card', 'qpay'] as const;
export type TrialMethod = (typeof TRIAL_METHODS)[number];

/** Why a listener may not start a trial: one per account (or an account that had Premium), one per number, none while subscribed. */
export const TRIAL_REFUSALS = ['used_account', 'used_number', 'subscribed'] as const;
export type TrialRefusal = (typeof TRIAL_REFUSALS)[number];

/** `GET /api/premium/trial`. */
export const trialOfferSchema = z
  .object({
    eligible: z.boolean(),
    reason: z.enum(TRIAL_REFUSALS).optional(),
    /**
     * The plans on sale with a trial, in /premium's order; `EndsAt` is when a trial started now
     * would end, by the server's clock (the dialog says so; a device's clock may be wrong).
     */
    plans: z.array(
      z.object({
        MerchantCode: z.string(),
        TrialDays: z.number().int(),
        Cost: z.number().int(),
        EndsAt: z.string(),
      }),
    ),
  })
  .describe('TrialOffer');
export type TrialOffer = z.infer<typeof trialOfferSchema>;

/** `POST /api/premium/trial`. */
export const trialStartRequestSchema = z
  .object({ MerchantCode: merchantCodeSchema, method: z.enum(TRIAL_METHODS) })
  .strict();
export type TrialStartRequest = z.infer<typeof trialStartRequestSchema>;

/** Card: the gateway's save-card page (nothing is charged); QPay: the trial runs until `startedUntil`. */
export const trialStartResponseSchema = z
  .union([z.object({ url: z.string() }), z.object({ startedUntil: z.string() })])
  .describe('TrialStart');
export type TrialStartResponse = z.infer<typeof trialStartResponseSchema>;

/** The 409 `trial_not_eligible` body: the usual error and why. */
export const trialRefusalBodySchema = errorBodySchema.extend({ reason: z.enum(TRIAL_REFUSALS).optional() });

/**
 * What `/profile?trial=<outcome>` says after the save-card page: `started`, or why not
 * (`trial_card_used`, `trial_not_eligible`, the card `declined`, the page `cancelled`, or `pending`).
 */
export const TRIAL_RETURN_OUTCOMES = [
  'started',
  'trial_card_used',
  'trial_not_eligible',
  'declined',
  'cancelled',
  'pending',
] as const;
export type TrialReturnOutcome = (typeof TRIAL_RETURN_OUTCOMES)[number];

/** The trial part of `GET /api/users/me/billing`: a running trial, or null. */
export const billingTrialSchema = z
  .object({
    /** When the free days end and the first renewal is due (ISO 8601). */
    endsAt: z.string(),
    /** What the first renewal costs. */
    amountAfter: z.number().int(),
    method: z.enum(TRIAL_METHODS),
    /** Cancelled in the trial: access to `endsAt`, never charged. */
    cancelled: z.boolean(),
  })
  .nullable()
  .describe('BillingTrial');
export type BillingTrial = z.infer<typeof billingTrialSchema>;

/** The dashboard's trials for its period. */
export interface DashboardTrials {
  started: number;
  converted: number;
  cancelled: number;
}
