import { useTranslation } from 'react-i18next';
import { WholeValue } from '@/components/whole-value';
import styles from './contact.module.css';

/** The company's phone, e-mail and address: the same texts as the footer (`common` contact-info). */
export function ContactDetails() {
  const { t } = useTranslation('content');
  const { t: tCommon } = useTranslation('common');
  const phone = tCommon('contact-info.phone');
  const email = tCommon('contact-info.email');
  return (
    <section className={`card ${styles.details}`} aria-labelledby="contact-details-title">
      <h2 id="contact-details-title">{t('contact.details')}</h2>
      <p className={styles.muted}>{t('contact.intro')}</p>
      <dl className={styles.list}>
        <dt>{tCommon('footer.phone')}</dt>
        <dd>
          <a href={`tel:${phone.replace(/\s/g, '')}`}>
            <WholeValue value={phone} kind="phone" />
          </a>
        </dd>
        <dt>{tCommon('footer.email')}</dt>
        <dd>
          <a href={`mailto:${email}`}>
            <WholeValue value={email} kind="email" />
          </a>
        </dd>
        <dt>{tCommon('footer.address')}</dt>
        <dd>{tCommon('contact-info.address')}</dd>
        <dt>{t('contact.hours-label')}</dt>
        <dd>{t('contact.hours')}</dd>
      </dl>
    </section>
  );
}
