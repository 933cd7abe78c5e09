import type { LandingData } from '@tunes/shared/content';
import { toEmbedUrl } from '@tunes/shared/embed-url';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import styles from './landing.module.css';
import { ReelArt } from './reel-art';

/** Three short videos; each frame loads only when asked to play, to keep the page light. */
export function Reels({ reels }: { reels: LandingData['reels'] }) {
  const { t } = useTranslation('content');
  const [playing, setPlaying] = useState<number | null>(null);
  return (
    <section className={styles.section} aria-labelledby="reels">
      <h2 id="reels" className={styles.sectionTitle}>
        {t('sections.reels')}
      </h2>
      <ul className={styles.reels}>
        {reels.map((reel, index) => {
          const embedUrl = toEmbedUrl(reel.url);
          return (
            <li key={reel.url + String(index)} className={styles.reel}>
              <div className={styles.reelFrame}>
                {!(embedUrl && playing === index) && <ReelArt url={reel.url} index={index} />}
                {embedUrl && playing === index ? (
                  <iframe
                    src={`${embedUrl}${embedUrl.includes('?') ? '&' : '?'}autoplay=1`}
                    title={t('reels.frame', { description: reel.description })}
                    allow="autoplay; encrypted-media; picture-in-picture; fullscreen"
                    allowFullScreen
                    referrerPolicy="strict-origin-when-cross-origin"
                  />
                ) : embedUrl ? (
                  <button type="button" className={styles.reelPlay} onClick={() => setPlaying(index)}>
                    <span className={styles.playBadge} aria-hidden="true">
                      ▶
                    </span>
                    <span className="visually-hidden">
                      {t('reels.play', { description: reel.description })}
                    </span>
                  </button>
                ) : (
                  <a className={styles.reelPlay} href={reel.url} target="_blank" rel="noopener noreferrer">
                    {t('video.open')}
                  </a>
                )}
              </div>
              <p className={styles.reelDescription}>{reel.description}</p>
            </li>
          );
        })}
      </ul>
    </section>
  );
}
