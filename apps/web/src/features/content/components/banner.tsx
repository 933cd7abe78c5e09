import type { LandingData } from '@tunes/shared/content';
import { useTranslation } from 'react-i18next';
import { PageTitle } from '@/components/page';
import narrowImage from '../assets/banner-narrow.svg?inline';
import wideImage from '../assets/banner-wide.svg?inline';
import styles from './landing.module.css';

/** Banner with title and description in the active language; another image at ≤ 1024 px. */
export function Banner({ landing }: { landing: LandingData | undefined }) {
  const { t, i18n } = useTranslation('common');
  const text = i18n.language === 'mn' ? landing?.bannerDescMn : landing?.bannerDescEn;
  return (
    <section className={styles.banner}>
      <picture>
        <source media="(max-width: 1024px)" srcSet={narrowImage} width={800} height={600} />
        <img
          className={styles.bannerImage}
          src={wideImage}
          alt=""
          width={1440}
          height={480}
          fetchPriority="high"
        />
      </picture>
      <div className={styles.bannerText}>
        <PageTitle className={styles.bannerTitle}>{text?.title ?? t('pages.home')}</PageTitle>
        <p className={styles.bannerDescription}>{text?.description ?? ''}</p>
      </div>
    </section>
  );
}
