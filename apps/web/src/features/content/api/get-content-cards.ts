import { type QueryClient, queryOptions, useQuery } from '@tanstack/react-query';
import type { Language } from '@tunes/shared/constants';
import type { ContentCard } from '@tunes/shared/content';
import { useTranslation } from 'react-i18next';
import { apiRequest } from '@/lib/api-client';
import { isLanguage } from '@/lib/i18n';

/** Per language: card titles and reel descriptions come in the listener's language. */
export const contentCardsQueryKey = (language: Language) => [...['content', 'cards'], language] as const;

export async function getContentCards(language: Language): Promise<ContentCard[]> {
  const { result } = await apiRequest<{ result: ContentCard[] }>(
    `/api/landing-page/contents/list/ALL?lang=${language}`,
  );
  return result;
}

const contentCardsQuery = (language: Language) =>
  queryOptions({
    queryKey: contentCardsQueryKey(language),
    queryFn: () => getContentCards(language),
    staleTime: 60_000,
    retry: 1,
    // After a change of language the page keeps the content it shows until the other arrives.
    placeholderData: (previous) => previous,
  });

/** Starts the request while the landing page's code loads. */
export function prefetchContentCards(client: QueryClient, language: Language): void {
  void client.prefetchQuery(contentCardsQuery(language));
}

export function useContentCards() {
  const { i18n } = useTranslation();
  return useQuery(contentCardsQuery(isLanguage(i18n.language) ? i18n.language : 'en'));
}
