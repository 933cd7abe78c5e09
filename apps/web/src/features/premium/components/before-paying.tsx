import { useTranslation } from 'react-i18next';
import styles from './premium.module.css';

interface Question {
  q: string;
  a: string;
}

/**
 * What a buyer asks before paying (issue 19): the ways to pay, the renewal and cancellation
 * fine print, and a short plan FAQ whose answers open as native disclosures (`<details>`,
 * keyboard and screen-reader ready without script).
 */
export function BeforePaying() {
  const { t } = useTranslation('premium');
  const methods = t('before-paying.methods', { returnObjects: true }) as string[];
  const finePrint = t('before-paying.fine-print', { returnObjects: true }) as string[];
  const questions = t('before-paying.faq', { returnObjects: true }) as Question[];
  return (
    <section className={`card ${styles.beforePaying}`} aria-labelledby="before-paying-title">
      <h2 id="before-paying-title">{t('before-paying.title')}</h2>
      <div className={styles.beforePayingColumns}>
        <div>
          <h3>{t('before-paying.methods-title')}</h3>
          <ul className={styles.finePrint}>
            {methods.map((line) => (
              <li key={line}>{line}</li>
            ))}
          </ul>
          <h3>{t('before-paying.fine-print-title')}</h3>
          <ul className={styles.finePrint}>
            {finePrint.map((line) => (
              <li key={line}>{line}</li>
            ))}
          </ul>
        </div>
        <div>
          <h3>{t('before-paying.faq-title')}</h3>
          {questions.map((question) => (
            <details key={question.q} className={styles.question}>
              <summary>{question.q}</summary>
              <p>{question.a}</p>
            </details>
          ))}
        </div>
      </div>
    </section>
  );
}
