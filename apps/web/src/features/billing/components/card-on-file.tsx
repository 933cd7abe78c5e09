import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ConfirmDialog } from '@/components/confirm-dialog';
import { toast } from '@/lib/toast';
import { useRemoveCard } from '../api/remove-card';
import styles from './billing.module.css';
import { ReplaceCardButton } from './replace-card-button';
import type { Card, Renewal } from './types';

/**
 * The card on file (brand and last 4, never more), Replace card (the gateway's save-card page,
 * nothing charged; Add a card without one) and Remove card, asked in a dialog first.
 */
export function CardOnFile({ card, renewal }: { card: Card | null; renewal: Renewal | null }) {
  const { t } = useTranslation('billing');
  const remove = useRemoveCard();
  const [confirming, setConfirming] = useState(false);
  const [removed, setRemoved] = useState(false);
  const heading = useRef<HTMLHeadingElement>(null);

  // The button that had focus is gone with the card: focus moves to the block it was in.
  useEffect(() => {
    if (removed && !card) heading.current?.focus();
  }, [removed, card]);

  const onConfirm = () =>
    remove.mutate(undefined, {
      onSuccess: () => {
        setRemoved(true);
        setConfirming(false);
        toast.success(t('card.removed'));
      },
      onError: () => setConfirming(false),
    });

  return (
    <div className={styles.block}>
      <h3 ref={heading} tabIndex={-1} className={styles.subheading}>
        {t('card.title')}
      </h3>
      {card ? (
        <div className={styles.cardRow}>
          <p className={styles.cardText}>
            <span aria-hidden="true" className={styles.cardNumber}>
              {t('card.label', { brand: card.brand, last4: card.last4 })}
            </span>
            <span className="visually-hidden">
              {t('card.spoken', { brand: card.brand, last4: card.last4 })}
            </span>
            {card.expires && (
              <span className={styles.muted}>{t('card.expires', { expires: card.expires })}</span>
            )}
          </p>
          <div className={styles.cardActions}>
            {/* A failed renewal offers it beside Pay now. */}
            {!renewal?.failedRenewal && <ReplaceCardButton hasCard />}
            <button
              type="button"
              className="button button--danger"
              aria-haspopup="dialog"
              onClick={() => setConfirming(true)}
            >
              {t('card.remove')}
            </button>
          </div>
        </div>
      ) : (
        <>
          <p className={styles.note}>{t('card.none')}</p>
          <ReplaceCardButton hasCard={false} />
        </>
      )}
      {confirming && card && (
        <ConfirmDialog
          title={t('card.confirm-title')}
          confirmLabel={remove.isPending ? t('card.removing') : t('card.confirm')}
          cancelLabel={t('card.keep')}
          busy={remove.isPending}
          danger
          onConfirm={onConfirm}
          onCancel={() => setConfirming(false)}
        >
          <p>{renewal ? t('card.confirm-text') : t('card.confirm-text-no-plan')}</p>
        </ConfirmDialog>
      )}
    </div>
  );
}
