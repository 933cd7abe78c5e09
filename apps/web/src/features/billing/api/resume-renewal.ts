import { useMutation, useQueryClient } from '@tanstack/react-query';
import { API_ERROR_CODES } from '@tunes/shared/error-codes';
import type { SubscriptionView } from '@tunes/shared/profile';
import { apiRequest } from '@/lib/api-client';
import { refreshBilling } from './refresh-billing';

export function resumeRenewal(subscriptionId: string): Promise<SubscriptionView> {
  return apiRequest<SubscriptionView>(`/api/subscriptions/${encodeURIComponent(subscriptionId)}/resume`, {
    method: 'POST',
    auth: true,
    errors: {
      messages: {
        [API_ERROR_CODES.planEnded]: 'billing:renewal.plan-ended',
        other: 'billing:renewal.resume-failed',
      },
      toast: 'message',
    },
  });
}

/** Turns auto-renew back on before the end date (product.md §12). */
export function useResumeRenewal() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: resumeRenewal,
    onSuccess: () => refreshBilling(queryClient),
    onError: (error) => console.error('resume failed', error),
  });
}
