import type { CardReturnOutcome } from '@tunes/shared/billing';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'wouter';
import styles from './billing.module.css';

// Listed here, not imported from the shared schemas: the profile's chunk stays without zod.
const CARD_RETURN_OUTCOMES: readonly CardReturnOutcome[] = ['saved', 'declined', 'cancelled', 'pending'];

const isOutcome = (value: string | null): value is CardReturnOutcome =>
  (CARD_RETURN_OUTCOMES as readonly (string | null)[]).includes(value);

/**
 * What came of the gateway's save-card page, as the server found it when the listener came back
 * (`/profile?card=saved|declined|cancelled|pending`).
 */
export function CardReturnNotice() {
  const { t } = useTranslation('billing');
  const [params] = useSearchParams();
  const outcome = params.get('card');
  if (!isOutcome(outcome)) return null;
  return (
    <p
      className={outcome === 'saved' ? styles.saved : styles.refused}
      role={outcome === 'saved' ? 'status' : 'alert'}
    >
      {t(`card.return.${outcome}`)}
    </p>
  );
}
