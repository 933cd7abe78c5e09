import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import styles from './help.module.css';

export interface FaqItem {
  q: string;
  a: string[];
}

/** The FAQ of product.md §2: one answer open at a time; each question a button that says if it is open. */
export function FaqAccordion() {
  const { t } = useTranslation('content-help');
  const [open, setOpen] = useState<number | null>(null);
  const items = t('faq.items', { returnObjects: true }) as FaqItem[];
  return (
    <>
      <p className={styles.intro}>{t('faq.intro')}</p>
      <div className={styles.accordion}>
        {items.map((item, index) => {
          const expanded = open === index;
          return (
            <div key={item.q} className={styles.item}>
              <h2 className={styles.question}>
                <button
                  type="button"
                  id={`faq-question-${index}`}
                  className={styles.toggle}
                  aria-expanded={expanded}
                  aria-controls={`faq-answer-${index}`}
                  onClick={() => setOpen(expanded ? null : index)}
                >
                  <span>{item.q}</span>
                  <span className={styles.chevron} aria-hidden="true" />
                </button>
              </h2>
              <section
                id={`faq-answer-${index}`}
                className={styles.answer}
                aria-labelledby={`faq-question-${index}`}
                hidden={!expanded}
              >
                {item.a.map((line) => (
                  <p key={line}>{line}</p>
                ))}
              </section>
            </div>
          );
        })}
      </div>
    </>
  );
}
