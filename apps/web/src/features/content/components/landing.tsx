import type { ContentCard } from '@tunes/shared/content';
import { lazy, Suspense } from 'react';
import { useTranslation } from 'react-i18next';
import { useStartWhenIdle } from '@/lib/use-start-when-idle';
import { useContentCards } from '../api/get-content-cards';
import { useLandingPage } from '../api/get-landing-page';
import { Banner } from './banner';
import { FeaturedVideo } from './featured-video';
import styles from './landing.module.css';
import { Reels } from './reels';

/**
 * The carousels and their library (Embla) load after the banner has painted, once the cards are
 * here, to keep the JavaScript before the first paint of `/` within budget (performance.md).
 */
const CardCarousel = lazy(() => import('./card-carousel'));

/** Holds a carousel's place while its code loads, so the page below does not jump. */
function CarouselPlaceholder({ title }: { title: string }) {
  return (
    <section className={styles.section}>
      <h2 className={styles.sectionTitle}>{title}</h2>
      <div className={styles.carouselPlaceholder} />
    </section>
  );
}

/**
 * Each carousel replaces its placeholder in an idle moment of its own, so showing the four is
 * four short tasks rather than one long one while the page becomes interactive (TBT).
 */
function LazyCarousel(props: { title: string; cards: readonly ContentCard[]; round?: boolean }) {
  const [started] = useStartWhenIdle();
  const placeholder = <CarouselPlaceholder title={props.title} />;
  if (!started) return placeholder;
  return (
    <Suspense fallback={placeholder}>
      <CardCarousel {...props} />
    </Suspense>
  );
}

const ofType = (cards: readonly ContentCard[], type: ContentCard['type']) =>
  cards.filter((card) => card.type === type);

/** The landing page of product.md §2: banner, card carousels, featured music video and reels. */
export function Landing() {
  const { t } = useTranslation('content');
  const landing = useLandingPage();
  const cards = useContentCards();
  const failed = landing.isError || cards.isError;
  const list = cards.data ?? [];
  const songs = ofType(list, 'SONG');

  return (
    <div className={styles.landing}>
      <Banner landing={landing.data} />
      <div className="page">
        {failed && (
          <div className="form-error" role="alert">
            <p>{t('load-failed')}</p>
            <button
              type="button"
              className="button button--ghost"
              onClick={() => {
                void landing.refetch();
                void cards.refetch();
              }}
            >
              {t('retry')}
            </button>
          </div>
        )}
        {!failed && (landing.isPending || cards.isPending) && (
          <div className={styles.placeholder} role="status">
            <span className="visually-hidden">{t('loading')}</span>
          </div>
        )}
        {cards.data && (
          <>
            <LazyCarousel title={t('sections.artists')} cards={ofType(list, 'ARTIST')} round />
            <LazyCarousel title={t('sections.new-songs')} cards={songs} />
            <LazyCarousel title={t('sections.trend-songs')} cards={songs.filter((song) => song.trending)} />
          </>
        )}
        {landing.data && <FeaturedVideo landing={landing.data} />}
        {cards.data && <LazyCarousel title={t('sections.playlists')} cards={ofType(list, 'PLAYLIST')} />}
        {landing.data && <Reels reels={landing.data.reels} />}
      </div>
    </div>
  );
}
