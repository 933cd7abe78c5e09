import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiRequest } from '@/lib/api-client';
import { refreshBilling } from './refresh-billing';

export function removeCard(): Promise<void> {
  return apiRequest<void>('/api/users/me/card', {
    method: 'DELETE',
    auth: true,
    errors: { messages: { other: 'billing:card.remove-failed' }, toast: 'message' },
  });
}

/** Removes the card on file; renewals then come as a payment link (product.md §12). */
export function useRemoveCard() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: removeCard,
    onSuccess: () => refreshBilling(queryClient),
    onError: (error) => console.error('remove card failed', error),
  });
}
