import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiRequest } from '@/lib/api-client';
import { invitationCodesQueryKey } from './get-invitation-codes';
import { sharedUsersQueryKey } from './get-shared-users';

export function removeSharedUser(subscriptionId: string, userId: string): Promise<void> {
  return apiRequest(
    `/api/subscription/${encodeURIComponent(subscriptionId)}/shared-users/${encodeURIComponent(userId)}`,
    { method: 'DELETE', auth: true },
  );
}

/** Takes a member off the plan, then reloads the codes and members (product.md §4). */
export function useRemoveSharedUser(subscriptionId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (userId: string) => removeSharedUser(subscriptionId, userId),
    onError: (error) => console.error('Removing a member failed', error),
    onSettled: () =>
      Promise.all([
        queryClient.invalidateQueries({ queryKey: invitationCodesQueryKey(subscriptionId) }),
        queryClient.invalidateQueries({ queryKey: sharedUsersQueryKey(subscriptionId) }),
      ]),
  });
}
