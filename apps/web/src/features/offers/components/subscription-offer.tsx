import { useTranslation } from 'react-i18next';
import { formatPrice } from '@/lib/format';
import type { SubscriptionOffer } from '../types';
import { offerDiscount } from './offer-code-field';
import styles from './offers.module.css';

/**
 * The offer on the listener's subscription, on /profile (issue 38): its discount, how many
 * discounted payments are left and what the next one costs.
 */
export function SubscriptionOfferSummary({
  offer,
  currency,
}: {
  offer: SubscriptionOffer;
  currency: string;
}) {
  const { t, i18n } = useTranslation('billing');
  const language = i18n.language;
  const discount = offerDiscount(offer, language);
  return (
    <div className={styles.block}>
      <h3 className={styles.subheading}>{t('offer.title')}</h3>
      <p className={styles.summary}>
        {offer.periodsLeft > 0
          ? t('offer.left', { code: offer.code, discount, count: offer.periodsLeft })
          : t('offer.used-up', { code: offer.code })}
      </p>
      <dl className={styles.facts}>
        <div>
          <dt>{t('offer.next-amount')}</dt>
          <dd>{formatPrice(offer.nextAmount, currency, language)}</dd>
        </div>
      </dl>
    </div>
  );
}
