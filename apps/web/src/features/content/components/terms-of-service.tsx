import { useTranslation } from 'react-i18next';
import styles from './help.module.css';

interface Section {
  title: string;
  paragraphs: string[];
}

function Part({ id, title, sections }: { id: string; title: string; sections: Section[] }) {
  return (
    <section className={styles.part} aria-labelledby={id}>
      <h2 id={id} className={styles.partTitle}>
        {title}
      </h2>
      {sections.map((section) => (
        <section key={section.title} className={styles.section}>
          <h3>{section.title}</h3>
          {section.paragraphs.map((paragraph) => (
            <p key={paragraph}>{paragraph}</p>
          ))}
        </section>
      ))}
    </section>
  );
}

/** Terms of service (11 sections) and privacy policy (6 sections) of product.md §2, from this product's facts. */
export function TermsOfService() {
  const { t } = useTranslation('content-help');
  const terms = t('terms.sections', { returnObjects: true }) as Section[];
  const privacy = t('privacy.sections', { returnObjects: true }) as Section[];
  return (
    <>
      <p className={styles.intro}>{t('terms.updated')}</p>
      <nav className={styles.contents} aria-label={t('terms.contents')}>
        <ul>
          <li>
            <a href="#terms-of-service">{t('terms.title')}</a>
          </li>
          <li>
            <a href="#privacy-policy">{t('privacy.title')}</a>
          </li>
        </ul>
      </nav>
      <Part id="terms-of-service" title={t('terms.title')} sections={terms} />
      <Part id="privacy-policy" title={t('privacy.title')} sections={privacy} />
    </>
  );
}
