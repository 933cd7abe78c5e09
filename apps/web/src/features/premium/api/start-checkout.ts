import { useMutation } from '@tanstack/react-query';
import type { CheckoutRequest } from '@tunes/shared/billing';
import { API_ERROR_CODES } from '@tunes/shared/error-codes';
import type { CheckoutResponse } from '@tunes/shared/premium';
import { ALREADY_SUBSCRIBED_CODE, PAYMENT_GATEWAY_ERROR_CODE } from '@tunes/shared/premium-rules';
import { apiRequest } from '@/lib/api-client';
import type { ErrorMessages } from '@/lib/api-error';

/** A checkout's refusals of its offer code, in the offer's words (the rest are the checkout's). */
export const OFFER_CHECKOUT_MESSAGES = {
  [API_ERROR_CODES.offerNotFound]: 'premium:offer.refused.not-found',
  [API_ERROR_CODES.offerEnded]: 'premium:offer.refused.ended',
  [API_ERROR_CODES.offerExhausted]: 'premium:offer.refused.exhausted',
  [API_ERROR_CODES.offerNotForYou]: 'premium:offer.refused.not-for-you',
} as const satisfies ErrorMessages;

export interface CheckoutChoice {
  merchantCode: string;
  /** Keep the card for renewals (product.md §12); the server's default is yes. */
  saveCard: boolean;
  /** A company's registry number for a company e-barimt. */
  ebarimtRegistry?: string | undefined;
  /** An offer code the listener applied (issue 38): the server prices the invoice with it. */
  offerCode?: string | undefined;
}

/** Starts a payment; a checkout that cannot start is toasted (product.md §4, §8). */
export function startCheckout({
  merchantCode,
  saveCard,
  ebarimtRegistry,
  offerCode,
}: CheckoutChoice): Promise<CheckoutResponse> {
  const body: CheckoutRequest = {
    MerchantCode: merchantCode,
    saveCard,
    ...(ebarimtRegistry ? { ebarimtRegistry } : {}),
    ...(offerCode ? { OfferCode: offerCode } : {}),
  };
  return apiRequest<CheckoutResponse>('/api/payments/checkout', {
    method: 'POST',
    json: body,
    auth: true,
    errors: {
      messages: {
        [ALREADY_SUBSCRIBED_CODE]: 'premium:checkout.already-subscribed',
        [PAYMENT_GATEWAY_ERROR_CODE]: 'premium:checkout.gateway-error',
        [API_ERROR_CODES.unknownCompany]: 'premium:qpay.unknown-company',
        ...OFFER_CHECKOUT_MESSAGES,
        other: 'premium:checkout.failed',
      },
      toast: 'message',
    },
  });
}

/** product.md §7 cache call: the product's own server, skipped on localhost. */
export async function cacheItem(key: string, value: string): Promise<void> {
  if (['localhost', '127.0.0.1'].includes(location.hostname)) return;
  await apiRequest('/api/cache/item', { method: 'POST', json: { key, value }, auth: true });
}

/**
 * Creates the payment session and sends the browser to the gateway page (token, os=PC). The
 * amount is the plan's Cost on the server; the browser only names the plan.
 */
export function useStartCheckout(userId: string | undefined) {
  return useMutation({
    mutationFn: startCheckout,
    onSuccess: async ({ url, invoiceId }) => {
      if (userId) {
        await cacheItem(invoiceId, userId).catch((error: unknown) =>
          console.error('cache item failed', error),
        );
      }
      window.location.assign(url);
    },
    onError: (error) => console.error('checkout failed', error),
  });
}
