import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { formatPrice } from '@/lib/format';
import { offerRefusalKey } from '../api/check-offer';
import type { OfferCheck } from '../types';
import styles from './offers.module.css';
import type { OfferCodeState } from './use-offer-code';

/** "50% off" or "2,000 ₮ off": what the offer takes off each discounted payment. */
export function offerDiscount(offer: Pick<OfferCheck, 'kind' | 'value'>, language: string): string {
  return offer.kind === 'percent' ? `${offer.value}%` : formatPrice(offer.value, 'MNT', language);
}

/**
 * "Have an offer code?" on /premium (issue 38): a code typed or brought by a link is checked
 * with the server; an offer the listener may use prices the plans below, and goes with the
 * checkout; a refused one says why.
 */
export function OfferCodeField({ state }: { state: OfferCodeState }) {
  const { t, i18n } = useTranslation('premium');
  const [typed, setTyped] = useState(state.applied ?? '');
  useEffect(() => {
    if (state.applied) setTyped(state.applied);
  }, [state.applied]);
  const { check, offer } = state;
  const refusal = state.malformed
    ? 'offer.refused.not-found'
    : check.isError
      ? offerRefusalKey(check.error)
      : check.data && !check.data.eligible
        ? (`offer.not-eligible.${check.data.reason ?? 'not-for-you'}` as const)
        : null;

  return (
    <form
      className={`card ${styles.box}`}
      noValidate
      onSubmit={(event) => {
        event.preventDefault();
        if (typed.trim()) state.apply(typed);
      }}
    >
      <label className="field__label" htmlFor="offer-code">
        {t('offer.label')}
      </label>
      <div className={styles.row}>
        <input
          id="offer-code"
          className="input"
          autoComplete="off"
          autoCapitalize="characters"
          spellCheck={false}
          maxLength={32}
          value={typed}
          aria-invalid={refusal !== null}
          aria-describedby="offer-code-result"
          onChange={(event) => setTyped(event.target.value)}
        />
        <button
          type="submit"
          className="button button--ghost"
          disabled={check.isFetching}
          aria-busy={check.isFetching}
        >
          {t('offer.apply')}
        </button>
        {state.applied && (
          <button
            type="button"
            className="button button--ghost"
            onClick={() => {
              setTyped('');
              state.clear();
            }}
          >
            {t('offer.remove')}
          </button>
        )}
      </div>
      <div id="offer-code-result">
        {refusal ? (
          <p className={styles.refused} role="alert">
            {t(refusal)}
          </p>
        ) : (
          <p className={offer ? styles.applied : 'visually-hidden'} role="status">
            {offer
              ? t('offer.applied', {
                  code: offer.code,
                  discount: offerDiscount(offer, i18n.language),
                  count: offer.periods,
                })
              : check.isFetching
                ? t('offer.checking')
                : ''}
          </p>
        )}
      </div>
    </form>
  );
}

/** On a plan's card: its price with the offer, for how many payments, and the price after. */
export function OfferPrice({
  offer,
  price,
  fullPrice,
  currency,
}: {
  offer: OfferCheck;
  price: number;
  fullPrice: number;
  currency: string;
}) {
  const { t, i18n } = useTranslation('premium');
  const language = i18n.language;
  return (
    <p className={styles.price}>
      <span className="visually-hidden">{t('offer.price-label')} </span>
      <span className={styles.offerCost}>{formatPrice(price, currency, language)}</span>{' '}
      {t('offer.price-terms', {
        code: offer.code,
        count: offer.periods,
        full: formatPrice(fullPrice, currency, language),
      })}
    </p>
  );
}
