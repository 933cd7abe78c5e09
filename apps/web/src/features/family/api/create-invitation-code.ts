import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiRequest } from '@/lib/api-client';
import { invitationCodesQueryKey } from './get-invitation-codes';

export function createInvitationCode(subscriptionId: string): Promise<{ Code: string; ExpiresAt: string }> {
  return apiRequest(`/api/subscription/${encodeURIComponent(subscriptionId)}/invitation-code`, {
    method: 'POST',
    auth: true,
  });
}

/** Creates a link for one free seat, then reloads the codes (product.md §4). */
export function useCreateInvitationCode(subscriptionId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () => createInvitationCode(subscriptionId),
    onError: (error) => console.error('Creating an invitation failed', error),
    onSettled: () => queryClient.invalidateQueries({ queryKey: invitationCodesQueryKey(subscriptionId) }),
  });
}
