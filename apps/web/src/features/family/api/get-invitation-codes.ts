import { queryOptions, useQuery } from '@tanstack/react-query';
import type { InvitationCodes } from '@tunes/shared/family';
import { apiRequest } from '@/lib/api-client';

export const invitationCodesQueryKey = (subscriptionId: string) =>
  ['family', subscriptionId, 'invitation-codes'] as const;

export function getInvitationCodes(subscriptionId: string): Promise<InvitationCodes> {
  return apiRequest<InvitationCodes>(
    `/api/subscription/${encodeURIComponent(subscriptionId)}/invitation-codes/`,
    { auth: true },
  );
}

export const invitationCodesQueryOptions = (subscriptionId: string) =>
  queryOptions({
    queryKey: invitationCodesQueryKey(subscriptionId),
    queryFn: () => getInvitationCodes(subscriptionId),
  });

/** The owner's live invitation codes and how many more may be created (product.md §7). */
export function useInvitationCodes(subscriptionId: string) {
  return useQuery(invitationCodesQueryOptions(subscriptionId));
}
