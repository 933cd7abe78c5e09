import type { TrialReturnOutcome } from '@tunes/shared/trials';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'wouter';
import { formatDate, formatPrice } from '@/lib/format';
import type { SubscriptionTrial } from '../types';
import styles from './trials.module.css';

/**
 * The listener's free trial on /profile (issue 38): when it ends and what it costs after, how
 * it is paid; or, cancelled in the trial, that Premium ends then and nothing is charged.
 */
export function TrialSummary({ trial, currency }: { trial: SubscriptionTrial; currency: string }) {
  const { t, i18n } = useTranslation('billing');
  const language = i18n.language;
  const facts = {
    date: formatDate(trial.endsAt, language),
    amount: formatPrice(trial.amountAfter, currency, language),
  };
  return (
    <div className={styles.block}>
      <h3 className={styles.subheading}>{t('trial.title')}</h3>
      {trial.cancelled ? (
        <p className={styles.status} role="status">
          {t('trial.cancelled', facts)}
        </p>
      ) : (
        <>
          <dl className={styles.facts}>
            <div>
              <dt>{t('trial.ends-at')}</dt>
              <dd>{facts.date}</dd>
            </div>
            <div>
              <dt>{t('trial.amount-after')}</dt>
              <dd>{facts.amount}</dd>
            </div>
          </dl>
          <p className={styles.note}>{t(`trial.then-${trial.method}`, facts)}</p>
        </>
      )}
    </div>
  );
}

// Listed here, not imported from the shared schemas: the profile's chunk stays without zod.
const OUTCOMES: readonly TrialReturnOutcome[] = [
  'started',
  'trial_card_used',
  'trial_not_eligible',
  'declined',
  'cancelled',
  'pending',
];
const isOutcome = (value: string | null): value is TrialReturnOutcome =>
  (OUTCOMES as readonly (string | null)[]).includes(value);

/** What came of a card trial's save-card page (`/profile?trial=…`), as the server found it. */
export function TrialReturnNotice() {
  const { t } = useTranslation('billing');
  const [params] = useSearchParams();
  const outcome = params.get('trial');
  if (!isOutcome(outcome)) return null;
  const good = outcome === 'started' || outcome === 'pending';
  return (
    <p className={good ? styles.saved : styles.refused} role={good ? 'status' : 'alert'}>
      {t(`trial.return.${outcome}`)}
    </p>
  );
}
