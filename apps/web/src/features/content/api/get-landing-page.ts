import { type QueryClient, queryOptions, useQuery } from '@tanstack/react-query';
import type { LandingData } from '@tunes/shared/content';
import { apiRequest } from '@/lib/api-client';

export const landingPageQueryKey = ['content', 'landing-page'] as const;

export async function getLandingPage(): Promise<LandingData> {
  const { result } = await apiRequest<{ result: LandingData }>('/api/landing-page');
  return result;
}

const landingPageQuery = queryOptions({
  queryKey: landingPageQueryKey,
  queryFn: getLandingPage,
  staleTime: 60_000,
  retry: 1,
});

/** Starts the request while the landing page's code loads. */
export function prefetchLandingPage(client: QueryClient): void {
  void client.prefetchQuery(landingPageQuery);
}

export function useLandingPage() {
  return useQuery(landingPageQuery);
}
