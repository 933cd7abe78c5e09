import { QueryClient, QueryClientProvider, useQuery } from '@tanstack/react-query';
import { DAY_MS } from '@tunes/shared/constants';
import type { ContentCard, LandingData } from '@tunes/shared/content';
import { useMemo } from 'react';
import { I18nextProvider, useTranslation } from 'react-i18next';
import { contentCardsQueryKey } from '@/features/content/api/get-content-cards';
import { landingPageQueryKey } from '@/features/content/api/get-landing-page';
import { Landing } from '@/features/content/components/landing';
import { adminApi } from '../../api';
import { QueryState } from '../../components';

interface Preview {
  landingPage: { result: LandingData };
  cards: { result: ContentCard[] };
}

/** Far enough ahead that the preview never refetches the published data over the draft. */
const NEVER_STALE = Date.now() + 10 * 365 * DAY_MS;

/**
 * The landing page as a listener will see it after publish: the listener site's own components,
 * given the draft as built by the server (`/api/admin/content/preview`), in the chosen language.
 */
export default function LandingPreview({ language }: { language: 'en' | 'mn' }) {
  const { i18n } = useTranslation('admin');
  const preview = useQuery({
    queryKey: ['admin', 'content', 'preview', language],
    queryFn: () => adminApi<Preview>('/content/preview', { query: { lang: language } }),
  });
  const client = useMemo(() => {
    const next = new QueryClient({
      defaultOptions: { queries: { retry: false, refetchOnWindowFocus: false } },
    });
    if (preview.data) {
      next.setQueryData(landingPageQueryKey(language), preview.data.landingPage.result, {
        updatedAt: NEVER_STALE,
      });
      next.setQueryData(contentCardsQueryKey(language), preview.data.cards.result, {
        updatedAt: NEVER_STALE,
      });
    }
    return next;
  }, [preview.data, language]);
  const translations = useMemo(() => i18n.cloneInstance({ lng: language }), [i18n, language]);

  if (!preview.data) return <QueryState pending={preview.isPending} error={preview.error} />;
  return (
    <div className="admin-preview" lang={language} data-testid="landing-preview">
      <I18nextProvider i18n={translations}>
        <QueryClientProvider client={client}>
          <Landing />
        </QueryClientProvider>
      </I18nextProvider>
    </div>
  );
}
