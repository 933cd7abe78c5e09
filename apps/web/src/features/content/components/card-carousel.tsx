import type { ContentCard } from '@tunes/shared/content';
import Autoplay from 'embla-carousel-autoplay';
import useEmblaCarousel from 'embla-carousel-react';
import { type KeyboardEvent, useEffect, useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useStartWhenIdle } from '@/lib/use-start-when-idle';
import { useReducedMotion } from '../hooks/use-reduced-motion';
import { useVisibleCount } from '../hooks/use-visible-count';
import styles from './card-carousel.module.css';

const AUTOPLAY_DELAY_MS = 4000;

/**
 * Embla's `duration` is not milliseconds but the stiffness of its scroll physics (a spring
 * stepped 60 times a second with friction 0.68). At 22 a one-card move (300–400 px) comes within
 * 1 px of its place after about 700 ms, the carousel speed of product.md §9 (`CAROUSEL_SPEED_MS`); the
 * mapping is worked out in docs/decisions/0006-content.md.
 */
export const EMBLA_DURATION_FOR_700_MS = 22;

interface CardCarouselProps {
  title: string;
  cards: readonly ContentCard[];
  /** ARTIST cards show round images. */
  round?: boolean;
}

/**
 * A carousel of cards linking out (product.md §2), built on Embla: 4 / 2 / 1 in view, 700 ms moves,
 * endless, autoplay that pauses while hovered or focused, stays off when the visitor prefers
 * reduced motion and has its own pause button (WCAG 2.2.2). Cards out of view are inert and
 * hidden from assistive technology, so Tab and screen readers meet only what is on screen.
 */
export default function CardCarousel({ title, cards, round = false }: CardCarouselProps) {
  const { t } = useTranslation('content');
  const headingId = useId();
  const visible = useVisibleCount();
  const reducedMotion = useReducedMotion();
  const canMove = cards.length > visible;
  const [autoplay] = useState(() =>
    Autoplay({
      delay: AUTOPLAY_DELAY_MS,
      playOnInit: false,
      // The component decides when to play (below); a drag only stops it until the pointer is up.
      stopOnInteraction: true,
      stopOnFocusIn: false,
      stopOnMouseEnter: false,
    }),
  );
  // Embla measures every slide when it starts: each carousel starts in its own idle moment (or at
  // once when hovered or focused) instead of all four in the task that shows them.
  const [started, start] = useStartWhenIdle();
  const [viewportRef, embla] = useEmblaCarousel(
    {
      active: canMove,
      loop: true,
      align: 'start',
      duration: reducedMotion ? 0 : EMBLA_DURATION_FOR_700_MS,
      // Only cards in view can take focus (the rest are inert), so Tab never needs to scroll.
      watchFocus: false,
    },
    [autoplay],
  );
  const [selected, setSelected] = useState(0);
  const [hovered, setHovered] = useState(false);
  const [focused, setFocused] = useState(false);
  /** The visitor's own choice of the pause button; until then reduced motion means no autoplay. */
  const [choice, setChoice] = useState<'play' | 'pause' | null>(null);
  const wantsPlay = choice === null ? !reducedMotion : choice === 'play';
  const playing = canMove && wantsPlay && !hovered && !focused;
  const first = canMove ? selected : 0;

  useEffect(() => {
    if (!embla) return;
    const onSelect = () => setSelected(embla.selectedScrollSnap());
    onSelect();
    embla.on('select', onSelect).on('reInit', onSelect);
    return () => {
      embla.off('select', onSelect).off('reInit', onSelect);
    };
  }, [embla]);

  useEffect(() => {
    if (!embla) return;
    // Re-applied after a re-measure (resize) or a drag, which restart or stop the plugin.
    const sync = () => {
      if (playing && embla.scrollSnapList().length > 1) autoplay.play();
      else autoplay.stop();
    };
    sync();
    embla.on('reInit', sync).on('pointerUp', sync);
    return () => {
      embla.off('reInit', sync).off('pointerUp', sync);
    };
  }, [embla, autoplay, playing]);

  if (cards.length === 0) {
    return (
      <section className={styles.section} aria-labelledby={headingId}>
        <h2 id={headingId} className={styles.title}>
          {title}
        </h2>
        <p className={styles.empty}>{t('no-cards')}</p>
      </section>
    );
  }

  const onKeyDown = (event: KeyboardEvent) => {
    if (!canMove) return;
    if (event.key === 'ArrowRight') embla?.scrollNext();
    else if (event.key === 'ArrowLeft') embla?.scrollPrev();
  };
  const inView = (index: number) => (index - first + cards.length) % cards.length < visible;

  return (
    <section
      className={styles.section}
      aria-labelledby={headingId}
      aria-roledescription={t('carousel.carousel')}
      onMouseEnter={() => {
        start();
        setHovered(true);
      }}
      onMouseLeave={() => setHovered(false)}
      onFocus={() => {
        start();
        setFocused(true);
      }}
      onBlur={(event) => {
        if (!event.currentTarget.contains(event.relatedTarget)) setFocused(false);
      }}
      onKeyDown={onKeyDown}
    >
      <div className={styles.header}>
        <h2 id={headingId} className={styles.title}>
          {title}
        </h2>
        {canMove && (
          <div className={styles.controls}>
            <button
              type="button"
              className={styles.control}
              onClick={() => setChoice(wantsPlay ? 'pause' : 'play')}
              aria-label={wantsPlay ? t('carousel.pause') : t('carousel.play')}
            >
              <span aria-hidden="true">{wantsPlay ? '❚❚' : '▶'}</span>
            </button>
            <button
              type="button"
              className={styles.control}
              onClick={() => embla?.scrollPrev()}
              aria-label={t('carousel.previous')}
            >
              <span aria-hidden="true">‹</span>
            </button>
            <button
              type="button"
              className={styles.control}
              onClick={() => embla?.scrollNext()}
              aria-label={t('carousel.next')}
            >
              <span aria-hidden="true">›</span>
            </button>
          </div>
        )}
      </div>
      <div className={styles.viewport} ref={started ? viewportRef : undefined}>
        <div className={styles.track}>
          {cards.map((card, index) => (
            // biome-ignore lint/a11y/useSemanticElements: the WAI-ARIA carousel pattern names slides as groups; a fieldset is for form controls.
            <div
              key={`${card.tunesUrl}-${String(index)}`}
              className={styles.slide}
              style={{ flexBasis: `${100 / visible}%` }}
              role="group"
              aria-roledescription={t('carousel.slide')}
              aria-label={t('carousel.position', { index: index + 1, count: cards.length })}
              aria-hidden={!inView(index)}
              inert={!inView(index)}
            >
              <a className={styles.card} href={card.tunesUrl} target="_blank" rel="noopener noreferrer">
                <img
                  className={round ? `${styles.image} ${styles.round}` : styles.image}
                  src={card.image}
                  alt=""
                  width={400}
                  height={400}
                  loading="lazy"
                  decoding="async"
                  draggable={false}
                />
                <span className={styles.name}>{card.title}</span>
                <span className="visually-hidden">{t('opens-in-new-tab')}</span>
              </a>
            </div>
          ))}
        </div>
      </div>
      {/* The WAI-ARIA carousel's live announcement, silent while the cards move on their own. */}
      <p className="visually-hidden" role="status">
        {!playing && canMove ? t('carousel.showing', { from: first + 1, count: cards.length }) : ''}
      </p>
    </section>
  );
}
