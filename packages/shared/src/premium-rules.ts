import { PAYMENT_CURRENCY } from './constants.js';
import { API_ERROR_CODES } from './error-codes.js';

/**
 * Premium rules without schemas, so the site's /premium chunk does not carry zod.
 * Request and answer schemas are in `premium.ts`.
 */

/** The offers sold on /premium (product.md §2); plans of any other offer stay hidden there. */
export const PREMIUM_OFFERS = ['premium', 'premium-duo', 'premium-family'] as const;

/** product.md §8: the answer to a subscriber who tries to buy again (the spec's own wording). */
export const ALREADY_SUBSCRIBED_MESSAGE = 'You already an active subscription';
export const ALREADY_SUBSCRIBED_CODE = API_ERROR_CODES.alreadySubscribed;
export const PAYMENT_GATEWAY_ERROR_CODE = API_ERROR_CODES.paymentGatewayError;

/** `refunded` and `partly_refunded`: paid, then all or part of it given back (the ledger says how much). */
export const INVOICE_STATUSES = [
  'created',
  'paid',
  'declined',
  'cancelled',
  'failed',
  'expired',
  'refunded',
  'partly_refunded',
] as const;
export type InvoiceStatus = (typeof INVOICE_STATUSES)[number];

/** The parts of a plan the rules read (the full shape is `Plan` in `premium.ts`). */
interface PlanFacts {
  Currency: string;
  Offer: string;
  Cost: number;
  OriginalCost: number | null;
}

/** Plans the /premium page lists: MNT plans of the premium, duo and family offers (product.md §2). */
export function plansForSale<T extends PlanFacts>(plans: readonly T[]): T[] {
  return plans.filter(
    (plan) =>
      plan.Currency === PAYMENT_CURRENCY && (PREMIUM_OFFERS as readonly string[]).includes(plan.Offer),
  );
}

/** Whole-percent discount from the old price (Duo 28, Family 35), or null without one. */
export function discountPercent(plan: Pick<PlanFacts, 'Cost' | 'OriginalCost'>): number | null {
  if (!plan.OriginalCost || plan.OriginalCost <= plan.Cost) return null;
  return Math.round((1 - plan.Cost / plan.OriginalCost) * 100);
}

/** The value of a localized list in a language, else its first value (product.md §3). */
export function localized(names: readonly { Language: string; Value: string }[], language: string): string {
  return names.find((name) => name.Language === language)?.Value ?? names[0]?.Value ?? '';
}

/** Active when the end date is in the future or auto-renew is on (product.md §4). */
export function isSubscriptionActive(
  subscription: { EndDate: string; IsAutoRenew: boolean },
  now = new Date(),
): boolean {
  return subscription.IsAutoRenew || new Date(subscription.EndDate).getTime() > now.getTime();
}
