import type { SubscriptionView } from '@tunes/shared/profile';
import { useTranslation } from 'react-i18next';
import styles from './premium.module.css';

/** The note for a subscription bought in the App Store or Google Play (product.md §2). */
export function StoreNote({ subscription }: { subscription: SubscriptionView | undefined }) {
  const { t } = useTranslation('premium');
  const source = subscription?.Source.SourceType;
  if (source !== 'Apple IAP' && source !== 'Google Play') return null;
  return (
    <p className={styles.note}>{t(source === 'Apple IAP' ? 'store-note.apple' : 'store-note.google')}</p>
  );
}
