import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { RenewalMethod } from '@tunes/shared/billing';
import { API_ERROR_CODES } from '@tunes/shared/error-codes';
import { apiRequest } from '@/lib/api-client';
import { refreshBilling } from './refresh-billing';

export function chooseRenewalMethod(method: RenewalMethod): Promise<void> {
  return apiRequest<void>('/api/users/me/renewal-method', {
    method: 'PUT',
    auth: true,
    json: { method },
    errors: {
      messages: { [API_ERROR_CODES.noCard]: 'billing:method.no-card', other: 'billing:method.failed' },
      toast: 'message',
    },
  });
}

/** Renewals by the card on file or by a QPay link sent before the end (product.md §12). */
export function useChooseRenewalMethod() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: chooseRenewalMethod,
    onSuccess: () => refreshBilling(queryClient),
    onError: (error) => console.error('renewal method failed', error),
  });
}
