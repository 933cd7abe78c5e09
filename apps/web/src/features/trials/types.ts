import type { BillingTrial, TrialMethod as SharedTrialMethod, TrialOffer } from '@tunes/shared/trials';

/**
 * A first-time free trial as the site reads it (issue 38, `@tunes/shared/trials`): once per
 * account, phone number and card. Types only: the pages' chunks stay without zod.
 */

/** `GET /api/premium/trial`: whether this listener may start one, and the plans that have one. */
export type TrialEligibility = TrialOffer;
export type TrialPlan = TrialOffer['plans'][number];

/** How a trial renews into a paid plan: the saved card, or a QPay link before it ends. */
export type TrialMethod = SharedTrialMethod;

/** `POST /api/premium/trial`: the save-card page (card), or the trial already started (QPay). */
export type TrialStart = { url: string } | { startedUntil: string };

/** The billing view's trial on the listener's subscription. */
export type SubscriptionTrial = NonNullable<BillingTrial>;
