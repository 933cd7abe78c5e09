import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { SubscriptionView } from '@tunes/shared/profile';
import { apiRequest } from '@/lib/api-client';

export function cancelSubscription(userId: string, subscriptionId: string): Promise<SubscriptionView> {
  return apiRequest<SubscriptionView>(
    `/api/users/${encodeURIComponent(userId)}/subscriptions/${encodeURIComponent(subscriptionId)}/cancel`,
    {
      method: 'POST',
      auth: true,
      errors: { messages: { other: 'premium:status.cancel-failed' }, toast: 'message' },
    },
  );
}

/** Cancelling Premium: auto-renew off, access to the end of the period; the profile reloads. */
export function useCancelSubscription(userId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (subscriptionId: string) => cancelSubscription(userId, subscriptionId),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: ['profile'] }),
    onError: (error) => console.error('cancel failed', error),
  });
}
