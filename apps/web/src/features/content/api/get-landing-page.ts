import { type QueryClient, queryOptions, useQuery } from '@tanstack/react-query';
import type { Language } from '@tunes/shared/constants';
import type { LandingData } from '@tunes/shared/content';
import { useTranslation } from 'react-i18next';
import { apiRequest } from '@/lib/api-client';
import { isLanguage } from '@/lib/i18n';

/** Per language: card titles and reel descriptions come in the listener's language. */
export const landingPageQueryKey = (language: Language) =>
  [...['content', 'landing-page'], language] as const;

export async function getLandingPage(language: Language): Promise<LandingData> {
  const { result } = await apiRequest<{ result: LandingData }>(`/api/landing-page?lang=${language}`);
  return result;
}

const landingPageQuery = (language: Language) =>
  queryOptions({
    queryKey: landingPageQueryKey(language),
    queryFn: () => getLandingPage(language),
    staleTime: 60_000,
    retry: 1,
    // After a change of language the page keeps the content it shows until the other arrives.
    placeholderData: (previous) => previous,
  });

/** Starts the request while the landing page's code loads. */
export function prefetchLandingPage(client: QueryClient, language: Language): void {
  void client.prefetchQuery(landingPageQuery(language));
}

export function useLandingPage() {
  const { i18n } = useTranslation();
  return useQuery(landingPageQuery(isLanguage(i18n.language) ? i18n.language : 'en'));
}
