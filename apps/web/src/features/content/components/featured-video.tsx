import type { LandingData } from '@tunes/shared/content';
import { toEmbedUrl } from '@tunes/shared/embed-url';
import { lazy, Suspense, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import styles from './landing.module.css';

const VideoModal = lazy(() => import('./video-modal'));

/** Featured artist: the music video's picture; the player opens in a modal loaded on demand. */
export function FeaturedVideo({ landing }: { landing: LandingData }) {
  const { t } = useTranslation('content');
  const [open, setOpen] = useState(false);
  const trigger = useRef<HTMLButtonElement>(null);
  const embedUrl = toEmbedUrl(landing.musicVideo);

  return (
    <section className={styles.section} aria-labelledby="featured-artist">
      <h2 id="featured-artist" className={styles.sectionTitle}>
        {t('sections.featured-artist')}
      </h2>
      {embedUrl ? (
        <button
          ref={trigger}
          type="button"
          className={styles.videoTrigger}
          onClick={() => setOpen(true)}
          aria-haspopup="dialog"
        >
          <img
            src={landing.musicVideoImage}
            alt=""
            width={640}
            height={360}
            loading="lazy"
            decoding="async"
          />
          <span className={styles.playBadge} aria-hidden="true">
            ▶
          </span>
          <span className="visually-hidden">{t('video.play')}</span>
        </button>
      ) : (
        <a href={landing.musicVideo} target="_blank" rel="noopener noreferrer">
          {t('video.open')}
        </a>
      )}
      {open && embedUrl && (
        <Suspense fallback={null}>
          <VideoModal
            embedUrl={embedUrl}
            onClose={() => {
              setOpen(false);
              trigger.current?.focus();
            }}
          />
        </Suspense>
      )}
    </section>
  );
}
