import { useMutation } from '@tanstack/react-query';
import type { CheckoutRequest } from '@tunes/shared/billing';
import { API_ERROR_CODES } from '@tunes/shared/error-codes';
import type { CheckoutResponse } from '@tunes/shared/premium';
import { ALREADY_SUBSCRIBED_CODE, PAYMENT_GATEWAY_ERROR_CODE } from '@tunes/shared/premium-rules';
import { apiRequest } from '@/lib/api-client';

export interface CheckoutChoice {
  merchantCode: string;
  /** Keep the card for renewals (product.md §12); the server's default is yes. */
  saveCard: boolean;
  /** A company's registry number for a company e-barimt. */
  ebarimtRegistry?: string | undefined;
}

/** Starts a payment; a checkout that cannot start is toasted (product.md §4, §8). */
export function startCheckout({
  merchantCode,
  saveCard,
  ebarimtRegistry,
}: CheckoutChoice): Promise<CheckoutResponse> {
  const body: CheckoutRequest = {
    MerchantCode: merchantCode,
    saveCard,
    ...(ebarimtRegistry ? { ebarimtRegistry } : {}),
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
