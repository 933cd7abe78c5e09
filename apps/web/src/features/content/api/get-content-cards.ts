import { type QueryClient, queryOptions, useQuery } from '@tanstack/react-query';
import type { ContentCard } from '@tunes/shared/content';
import { apiRequest } from '@/lib/api-client';

export const contentCardsQueryKey = ['content', 'cards'] as const;

export async function getContentCards(): Promise<ContentCard[]> {
  const { result } = await apiRequest<{ result: ContentCard[] }>('/api/landing-page/contents/list/ALL');
  return result;
}

const contentCardsQuery = queryOptions({
  queryKey: contentCardsQueryKey,
  queryFn: getContentCards,
  staleTime: 60_000,
  retry: 1,
});

/** Starts the request while the landing page's code loads. */
export function prefetchContentCards(client: QueryClient): void {
  void client.prefetchQuery(contentCardsQuery);
}

export function useContentCards() {
  return useQuery(contentCardsQuery);
}
