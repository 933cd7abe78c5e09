import type { RenewalMethod as Method } from '@tunes/shared/billing';
import { useTranslation } from 'react-i18next';
import { toast } from '@/lib/toast';
import { useChooseRenewalMethod } from '../api/choose-renewal-method';
import styles from './billing.module.css';
import type { Card, Renewal } from './types';

/**
 * How renewals are paid (product.md §12): the card on file, charged on the renewal date, or a
 * payment link sent 3 days before (paid by QPay or a card). Without a card only the link is
 * possible; the card option says so.
 */
export function RenewalMethod({ renewal, card }: { renewal: Renewal; card: Card | null }) {
  const { t } = useTranslation('billing');
  const choose = useChooseRenewalMethod();
  const current: Method = renewal.renewsBy === 'card' ? 'card' : 'qpay';
  const shown = choose.isPending && choose.variables ? choose.variables : current;
  const pick = (method: Method) => {
    if (method === current || choose.isPending) return;
    choose.mutate(method, {
      onSuccess: () => toast.success(method === 'card' ? t('method.now-card') : t('method.now-qpay')),
    });
  };
  return (
    <fieldset className={styles.method} aria-busy={choose.isPending}>
      <legend>{t('method.title')}</legend>
      <label>
        <input
          type="radio"
          name="renewal-method"
          value="card"
          checked={shown === 'card'}
          disabled={!card}
          onChange={() => pick('card')}
        />
        <span>
          {card ? t('method.card', { brand: card.brand, last4: card.last4 }) : t('method.card-none')}
        </span>
      </label>
      <label>
        <input
          type="radio"
          name="renewal-method"
          value="qpay"
          checked={shown === 'qpay'}
          onChange={() => pick('qpay')}
        />
        <span>{t('method.qpay')}</span>
      </label>
    </fieldset>
  );
}
