import { useMutation, useQueryClient } from '@tanstack/react-query';
import { INVITATION_ERRORS } from '@tunes/shared/family';
import { ApiError, apiRequest } from '@/lib/api-client';

export function acceptInvitation(code: string): Promise<{ SubscriptionId: string }> {
  return apiRequest(`/api/subscription/invitations/${encodeURIComponent(code)}`, {
    method: 'POST',
    auth: true,
  });
}

/** The translation key of the product.md §8 message for a refused invitation. */
export function acceptErrorKey(error: unknown): 'join.already-subscribed' | 'join.invalid' {
  return error instanceof ApiError &&
    error.status === 400 &&
    error.code === INVITATION_ERRORS.alreadySubscribed
    ? 'join.already-subscribed'
    : 'join.invalid';
}

/** Joins the plan of the stored code; the profile then shows the shared plan. */
export function useAcceptInvitation() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: acceptInvitation,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: ['profile'] }),
  });
}
