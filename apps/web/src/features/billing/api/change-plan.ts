import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { PlanChangeResponse } from '@tunes/shared/billing';
import { API_ERROR_CODES } from '@tunes/shared/error-codes';
import { PAYMENT_GATEWAY_ERROR_CODE } from '@tunes/shared/premium-rules';
import { apiRequest } from '@/lib/api-client';
import { refreshBilling } from './refresh-billing';

export function changePlan(subscriptionId: string, merchantCode: string): Promise<PlanChangeResponse> {
  return apiRequest<PlanChangeResponse>(`/api/subscriptions/${encodeURIComponent(subscriptionId)}/change`, {
    method: 'POST',
    json: { MerchantCode: merchantCode },
    auth: true,
    errors: {
      messages: {
        [API_ERROR_CODES.planNotChangeable]: 'billing:change.not-changeable',
        [PAYMENT_GATEWAY_ERROR_CODE]: 'billing:change.gateway-error',
        other: 'billing:change.failed',
      },
      toast: 'message',
    },
  });
}

/**
 * Changes plan (product.md §12): an upgrade paid with the saved card holds at once, one without
 * (or declined) goes to the gateway page for the prorated difference, a downgrade waits for
 * the renewal.
 */
export function useChangePlan(subscriptionId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (merchantCode: string) => changePlan(subscriptionId, merchantCode),
    onSuccess: async (result) => {
      if (result.status === 'payment_required') {
        window.location.assign(result.url);
        return;
      }
      await refreshBilling(queryClient);
    },
    onError: (error) => console.error('plan change failed', error),
  });
}
