import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiRequest } from '@/lib/api-client';
import { invitationCodesQueryKey } from './get-invitation-codes';

/** `DELETE /api/subscription/{id}/invitation-codes/{code}`: the link stops working at once. */
export function withdrawInvitation(subscriptionId: string, code: string): Promise<null> {
  return apiRequest<null>(
    `/api/subscription/${encodeURIComponent(subscriptionId)}/invitation-codes/${encodeURIComponent(code)}`,
    {
      method: 'DELETE',
      auth: true,
      errors: { messages: { other: 'family:invite.withdraw-failed' }, toast: 'message' },
    },
  );
}

/** Withdraws an unused link, then reloads the codes: the seat is free for a new one. */
export function useWithdrawInvitation(subscriptionId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (code: string) => withdrawInvitation(subscriptionId, code),
    onSettled: () => queryClient.invalidateQueries({ queryKey: invitationCodesQueryKey(subscriptionId) }),
  });
}
