import { useMutation, useQueryClient } from '@tanstack/react-query';
import { INVITATION_ERRORS } from '@tunes/shared/family-codes';
import { apiRequest } from '@/lib/api-client';

/** Joins the plan of an invitation code; a refusal reads the product.md §8 text. */
export function acceptInvitation(code: string): Promise<{ SubscriptionId: string }> {
  return apiRequest(`/api/subscription/invitations/${encodeURIComponent(code)}`, {
    method: 'POST',
    auth: true,
    errors: {
      messages: {
        [INVITATION_ERRORS.alreadySubscribed]: 'family:join.already-subscribed',
        other: 'family:join.invalid',
      },
    },
  });
}

/** Joins the plan of the stored code; the profile then shows the shared plan. */
export function useAcceptInvitation() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: acceptInvitation,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: ['profile'] }),
  });
}
