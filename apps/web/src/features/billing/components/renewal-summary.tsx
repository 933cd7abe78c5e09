import { localized } from '@tunes/shared/premium-rules';
import { useTranslation } from 'react-i18next';
import { formatDate, formatPrice } from '@/lib/format';
import { toast } from '@/lib/toast';
import { useChangePlan } from '../api/change-plan';
import { useResumeRenewal } from '../api/resume-renewal';
import styles from './billing.module.css';
import { PriceChangeNotice } from './price-change-notice';
import { RenewalMethod } from './renewal-method';
import type { Card, Renewal } from './types';

/**
 * What happens at the end of the period: the next charge, date and amount, and how it is paid
 * (the saved card or a payment link); or, with auto-renew off, the end date and Resume; and a
 * downgrade waiting for the renewal, with the seats it takes away.
 */
export function RenewalSummary({
  renewal,
  card,
  currentCode,
}: {
  renewal: Renewal;
  card: Card | null;
  currentCode: string | undefined;
}) {
  const { t, i18n } = useTranslation('billing');
  const language = i18n.language;
  const resume = useResumeRenewal();
  if (renewal.failedRenewal) return null;

  if (!renewal.autoRenew || !renewal.nextChargeAt) {
    return (
      <div className={styles.block}>
        <p className={styles.lead}>{t('renewal.ends', { date: formatDate(renewal.endDate, language) })}</p>
        <button
          type="button"
          className="button button--primary"
          onClick={() =>
            resume.mutate(renewal.subscriptionId, { onSuccess: () => toast.success(t('renewal.resumed')) })
          }
          disabled={resume.isPending}
          aria-busy={resume.isPending}
        >
          {resume.isPending ? t('renewal.resuming') : t('renewal.resume')}
        </button>
      </div>
    );
  }

  return (
    <div className={styles.block}>
      <dl className={styles.facts}>
        <div>
          <dt>{t('renewal.next-charge')}</dt>
          <dd>{formatDate(renewal.nextChargeAt, language)}</dd>
        </div>
        <div>
          <dt>{t('renewal.amount')}</dt>
          <dd>{formatPrice(renewal.amount, renewal.currency, language)}</dd>
        </div>
        {renewal.pendingChange && (
          <div>
            <dt>{t('renewal.renews-to')}</dt>
            <dd>{localized(renewal.pendingChange.Name, language)}</dd>
          </div>
        )}
      </dl>
      <PriceChangeNotice renewal={renewal} />
      <p className={styles.note}>
        {renewal.renewsBy === 'card'
          ? t('renewal.by-card')
          : card
            ? t('renewal.by-qpay')
            : t('renewal.by-link')}
      </p>
      <RenewalMethod renewal={renewal} card={card} />
      {renewal.pendingChange && currentCode && (
        <PendingChange renewal={renewal} pending={renewal.pendingChange} currentCode={currentCode} />
      )}
    </div>
  );
}

function PendingChange({
  renewal,
  pending,
  currentCode,
}: {
  renewal: Renewal;
  pending: NonNullable<Renewal['pendingChange']>;
  currentCode: string;
}) {
  const { t, i18n } = useTranslation('billing');
  const language = i18n.language;
  const keep = useChangePlan(renewal.subscriptionId);
  return (
    <div className={styles.pending}>
      <p>
        {t('renewal.pending', {
          plan: localized(pending.Name, language),
          date: formatDate(pending.startsAt, language),
        })}
        {pending.membersLosingSeat > 0 && (
          <> {t('renewal.seats-lost', { count: pending.membersLosingSeat })}</>
        )}
      </p>
      <button
        type="button"
        className="button button--ghost"
        onClick={() => keep.mutate(currentCode, { onSuccess: () => toast.success(t('renewal.kept')) })}
        disabled={keep.isPending}
        aria-busy={keep.isPending}
      >
        {t('renewal.keep')}
      </button>
    </div>
  );
}
