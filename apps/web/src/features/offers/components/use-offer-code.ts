import { useEffect, useState } from 'react';
import { useSearch } from 'wouter';
import { useOfferCheck } from '../api/check-offer';
import { normalOfferCode, OFFER_CODE_PATTERN, type OfferCheck } from '../types';

/**
 * An offer code a link brought (`/premium?offer=CODE`) is kept for the tab, so signing in from
 * the plans (which returns to `/premium` without its query) still finds it.
 */
const LINKED_OFFER_KEY = 'offerCode';

function remembered(): string | null {
  try {
    return sessionStorage.getItem(LINKED_OFFER_KEY);
  } catch {
    return null;
  }
}

function remember(code: string | null): void {
  try {
    if (code) sessionStorage.setItem(LINKED_OFFER_KEY, code);
    else sessionStorage.removeItem(LINKED_OFFER_KEY);
  } catch {
    // Storage refused (private mode): the code lasts for this page only.
  }
}

export interface OfferCodeState {
  /** The code applied (checked, or being checked); null when none is. */
  applied: string | null;
  /** The offer of the applied code, once the server has said it may be used. */
  offer: OfferCheck | null;
  check: ReturnType<typeof useOfferCheck>;
  /** A typed code of the wrong shape (refused without asking). */
  malformed: boolean;
  apply(code: string): void;
  clear(): void;
}

/**
 * The offer code of the plans page: from a link, or typed; checked with the server. Once the
 * listener is `subscribed` (the code was used, or is of no use now) the tab forgets it.
 */
export function useOfferCode(subscribed = false): OfferCodeState {
  const linked = new URLSearchParams(useSearch()).get('offer');
  const [applied, setApplied] = useState<string | null>(null);
  useEffect(() => {
    if (subscribed) remember(null);
  }, [subscribed]);
  useEffect(() => {
    const code = linked ? normalOfferCode(linked) : remembered();
    if (!code) return;
    remember(code);
    setApplied(code);
  }, [linked]);
  const check = useOfferCheck(applied);
  const malformed = applied !== null && !OFFER_CODE_PATTERN.test(applied);
  const offer = check.data?.eligible ? check.data : null;
  return {
    applied,
    offer,
    check,
    malformed,
    apply: (code) => {
      const normal = normalOfferCode(code);
      remember(OFFER_CODE_PATTERN.test(normal) ? normal : null);
      setApplied(normal || null);
    },
    clear: () => {
      remember(null);
      setApplied(null);
    },
  };
}

/** The price of `MerchantCode` with the offer, or null when the offer does not cover the plan. */
export function offerPriceOf(offer: OfferCheck | null, merchantCode: string): number | null {
  const price = offer?.prices.find((entry) => entry.MerchantCode === merchantCode);
  return price && price.DiscountedCost < price.Cost ? price.DiscountedCost : null;
}
