import { useTranslation } from 'react-i18next';
import { formatDate, formatPrice } from '@/lib/format';
import styles from './billing.module.css';
import type { Renewal } from './types';

/** A price rise with notice (product.md §1 "30-day notice"): the coming price and the renewal it starts at. */
export function PriceChangeNotice({ renewal }: { renewal: Renewal }) {
  const { t, i18n } = useTranslation('billing');
  const change = renewal.priceChange;
  if (!change) return null;
  const language = i18n.language;
  return (
    <p className={styles.note}>
      {t('renewal.price-change', {
        date: formatDate(change.from, language),
        price: formatPrice(change.amount, renewal.currency, language),
        previous: formatPrice(change.previousAmount, renewal.currency, language),
      })}
    </p>
  );
}
