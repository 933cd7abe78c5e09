import { localized } from '@tunes/shared/premium-rules';
import { useTranslation } from 'react-i18next';
import { formatDate, formatPrice } from '@/lib/format';
import { usePayNow } from '../api/pay-now';
import styles from './billing.module.css';
import { ReplaceCardButton } from './replace-card-button';
import type { FailedRenewalInfo, Renewal } from './types';

/**
 * A renewal the saved card did not pay (product.md §12): what failed, when it is tried again,
 * how long access lasts, and Pay now, which opens the gateway page for that renewal, with Replace
 * card beside it (the new card is charged for this renewal at once).
 */
export function FailedRenewal({ renewal, failed }: { renewal: Renewal; failed: FailedRenewalInfo }) {
  const { t, i18n } = useTranslation('billing');
  const language = i18n.language;
  const pay = usePayNow();
  const busy = pay.isPending || pay.isSuccess;
  return (
    <div className={styles.failed} role="alert" aria-labelledby="failed-renewal-title">
      <h3 id="failed-renewal-title">{t('failed.title')}</h3>
      <p>
        {t('failed.text', {
          amount: formatPrice(renewal.amount, renewal.currency, language),
          plan: localized(renewal.Name, language),
        })}{' '}
        {failed.nextAttemptAt
          ? t('failed.retry', { date: formatDate(failed.nextAttemptAt, language) })
          : t('failed.last')}
      </p>
      <p>{t('failed.access', { date: formatDate(failed.accessUntil, language) })}</p>
      <div className={styles.actions}>
        <button
          type="button"
          className="button button--primary"
          onClick={() => pay.mutate(renewal.subscriptionId)}
          disabled={busy}
          aria-busy={busy}
        >
          {t('failed.pay-now')}
        </button>
        {/* A new card is tried for this renewal at once (product.md §12). */}
        <ReplaceCardButton hasCard />
      </div>
      <p className="visually-hidden" role="status">
        {busy ? t('failed.redirecting') : ''}
      </p>
    </div>
  );
}
