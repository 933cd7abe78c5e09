import { queryOptions, useQuery } from '@tanstack/react-query';
import type { SharedUser } from '@tunes/shared/family';
import { apiRequest } from '@/lib/api-client';

export const sharedUsersQueryKey = (subscriptionId: string) =>
  ['family', subscriptionId, 'shared-by'] as const;

/** The plan's members; a failure gives an empty list (product.md §8). */
export async function getSharedUsers(subscriptionId: string): Promise<SharedUser[]> {
  try {
    return await apiRequest<SharedUser[]>(
      `/api/subscription/${encodeURIComponent(subscriptionId)}/shared-by/`,
      { auth: true },
    );
  } catch (error) {
    console.error('Loading the shared users failed', error);
    return [];
  }
}

export const sharedUsersQueryOptions = (subscriptionId: string) =>
  queryOptions({
    queryKey: sharedUsersQueryKey(subscriptionId),
    queryFn: () => getSharedUsers(subscriptionId),
  });

export function useSharedUsers(subscriptionId: string) {
  return useQuery(sharedUsersQueryOptions(subscriptionId));
}
