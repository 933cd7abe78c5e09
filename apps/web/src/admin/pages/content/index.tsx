import { useQuery } from '@tanstack/react-query';
import { lazy, Suspense, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { adminApi } from '../../api';
import { ConfirmedAction, QueryState, Segmented, When } from '../../components';
import { consoleQueryClient } from '../../session';
import { CardList } from './card-list';
import { LandingForm } from './landing-form';
import { CARD_TYPES, type ContentState, contentKey } from './types';

const LandingPreview = lazy(() => import('./landing-preview'));
const LANGUAGES = ['en', 'mn'] as const;

/** Content: the landing page's draft, its cards, a preview as a listener sees it, and publish. */
export default function ContentPage() {
  const { t } = useTranslation('admin');
  const content = useQuery({ queryKey: contentKey, queryFn: () => adminApi<ContentState>('/content') });
  const [preview, setPreview] = useState<'en' | 'mn' | null>(null);

  if (!content.data) return <QueryState pending={content.isPending} error={content.error} />;
  const { landing, cards, changed, publishedAt, publishedRevision } = content.data;

  return (
    <>
      <h1 className="admin-title">{t('content.title')}</h1>
      <div className="admin-publish" role="status">
        <p>
          {changed ? t('content.unpublished') : t('content.up-to-date')}{' '}
          <span className="admin-muted">
            {t('content.published', { revision: publishedRevision })} <When at={publishedAt} />
          </span>
        </p>
        <div className="admin-actions">
          <button
            type="button"
            className="button button--ghost admin-small"
            onClick={() => setPreview(preview ? null : 'en')}
            aria-expanded={preview !== null}
          >
            {preview ? t('content.hide-preview') : t('content.preview')}
          </button>
          <ConfirmedAction
            label={t('content.publish')}
            title={t('content.publish')}
            disabled={!changed}
            run={async () => {
              const { revision } = await adminApi<{ revision: number }>('/content/publish', {
                method: 'POST',
                json: {},
              });
              await consoleQueryClient.invalidateQueries({ queryKey: contentKey });
              return t('content.published-now', { revision });
            }}
          >
            <p>{t('content.publish-question')}</p>
          </ConfirmedAction>
          <ConfirmedAction
            label={t('content.discard')}
            title={t('content.discard')}
            danger
            disabled={!changed}
            run={async () => {
              await adminApi('/content/discard', { method: 'POST', json: {} });
              await consoleQueryClient.invalidateQueries({ queryKey: contentKey });
              return t('content.discarded');
            }}
          >
            <p>{t('content.discard-question')}</p>
          </ConfirmedAction>
        </div>
      </div>
      {preview && (
        <section className="admin-section" aria-labelledby="preview-title">
          <div className="admin-topline">
            <h2 id="preview-title" className="admin-subtitle">
              {t('content.preview-title')}
            </h2>
            <Segmented
              label={t('content.preview-language')}
              options={LANGUAGES.map((language) => ({ value: language, label: t(`language.${language}`) }))}
              value={preview}
              onChange={setPreview}
            />
          </div>
          <Suspense fallback={<p role="status">{t('loading')}</p>}>
            <LandingPreview language={preview} />
          </Suspense>
        </section>
      )}
      <LandingForm landing={landing} />
      <h2 className="admin-subtitle">{t('content.cards')}</h2>
      {CARD_TYPES.map((type) => (
        <CardList key={type} cards={cards} type={type} />
      ))}
    </>
  );
}
