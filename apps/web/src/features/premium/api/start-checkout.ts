import { useMutation } from '@tanstack/react-query';
import type { CheckoutResponse } from '@tunes/shared/premium';
import { ALREADY_SUBSCRIBED_CODE, PAYMENT_GATEWAY_ERROR_CODE } from '@tunes/shared/premium-rules';
import { ApiError, apiRequest } from '@/lib/api-client';

export function startCheckout(merchantCode: string): Promise<CheckoutResponse> {
  return apiRequest<CheckoutResponse>('/api/payments/checkout', {
    method: 'POST',
    json: { MerchantCode: merchantCode },
    auth: true,
  });
}

/** product.md §7 cache call: the product's own server, skipped on localhost. */
export async function cacheItem(key: string, value: string): Promise<void> {
  if (['localhost', '127.0.0.1'].includes(location.hostname)) return;
  await apiRequest('/api/cache/item', { method: 'POST', json: { key, value }, auth: true });
}

export type CheckoutErrorKey = 'already-subscribed' | 'gateway-error' | 'failed';

/** The translation key of the message for a checkout that could not start (product.md §4, §8). */
export function checkoutErrorKey(error: unknown): CheckoutErrorKey {
  if (error instanceof ApiError && error.code === ALREADY_SUBSCRIBED_CODE) return 'already-subscribed';
  if (error instanceof ApiError && error.code === PAYMENT_GATEWAY_ERROR_CODE) return 'gateway-error';
  return 'failed';
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
