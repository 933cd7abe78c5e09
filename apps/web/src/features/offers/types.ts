import type { BillingOffer, PublicOffer } from '@tunes/shared/offers';

/**
 * An offer as the site reads it (issue 38, `@tunes/shared/offers`): a percent or an amount off a
 * plan's price for its first N periods. Types only: the plans page's chunk stays without zod.
 */

/** `GET /api/offers/:code`: the offer, its price per plan, and whether the listener may use it. */
export type OfferCheck = PublicOffer;

/** The billing view's offer on a subscription: the discounted payments left and the next one. */
export type SubscriptionOffer = BillingOffer;

/** The refusals of an offer code the site words (the server's error codes). */
export const OFFER_REFUSALS = {
  offer_not_found: 'offer.refused.not-found',
  offer_ended: 'offer.refused.ended',
  offer_exhausted: 'offer.refused.exhausted',
  offer_not_for_you: 'offer.refused.not-for-you',
} as const;

export type OfferRefusalKey =
  | (typeof OFFER_REFUSALS)[keyof typeof OFFER_REFUSALS]
  | 'offer.refused.too-many'
  | 'offer.refused.failed';

/** As `@tunes/shared/offers`' OFFER_CODE_PATTERN: 4–32 letters, digits and dashes, in capitals. */
export const OFFER_CODE_PATTERN = /^[A-Z0-9-]{4,32}$/;

export const normalOfferCode = (code: string) => code.trim().toUpperCase();
