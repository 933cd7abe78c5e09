import type { Plan } from '@tunes/shared/premium';
import { discountPercent, localized } from '@tunes/shared/premium-rules';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { formatPrice } from '@/lib/format';
import { offerTexts, PLAN_FEATURES } from '../features';
import { Tick } from './icons';
import styles from './premium.module.css';

interface PlanCardProps {
  plan: Plan;
  onChoose: (plan: Plan) => void;
  busy: boolean;
  /** The plan's price with an offer code applied (issue 38), under its own price. */
  offer?: ReactNode;
  /** A free trial's action (issue 38), under the button. */
  trial?: ReactNode;
}

/** One plan (product.md §2): name, type, description, users, six features, price, duration, badges. */
export function PlanCard({ plan, onChoose, busy, offer: offerPrice, trial }: PlanCardProps) {
  const { t, i18n } = useTranslation('premium');
  const language = i18n.language;
  const name = localized(plan.Name, language);
  const discount = discountPercent(plan);
  const offer = offerTexts(plan.Offer);
  const titleId = `plan-${plan.MerchantCode}`;
  return (
    <article className={`card ${styles.plan}`} aria-labelledby={titleId}>
      <p className={styles.highlight}>
        {plan.Badge ? localized(plan.Badge, language) : offer ? t(offer.highlight) : ''}
      </p>
      <div className={styles.planHead}>
        <h3 id={titleId} className={styles.planName}>
          {name}
        </h3>
        {discount !== null && (
          <span
            className={styles.badge}
            role="img"
            aria-label={t('plan.discount-label', { percent: discount })}
          >
            {t('plan.discount', { percent: discount })}
          </span>
        )}
      </div>
      <p className={styles.type}>{offer ? t(offer.type) : plan.Offer}</p>
      <p className={styles.description}>{localized(plan.Description, language)}</p>
      <p className={styles.users}>{t('plan.users', { count: plan.MaxSharedUsers + 1 })}</p>
      <ul className={styles.features} aria-label={t('plan.features')}>
        {PLAN_FEATURES.map((feature) => (
          <li key={feature}>
            <Tick />
            {t(feature)}
          </li>
        ))}
      </ul>
      <p className={styles.price}>
        {plan.OriginalCost !== null && plan.OriginalCost > plan.Cost && (
          <del className={styles.oldPrice}>
            <span className="visually-hidden">{t('plan.old-price')} </span>
            {formatPrice(plan.OriginalCost, plan.Currency, language)}
          </del>
        )}
        <span className={styles.cost}>
          <span className="visually-hidden">{t('plan.price')} </span>
          {formatPrice(plan.Cost, plan.Currency, language)}
        </span>
        <span className={styles.duration}>{t('plan.duration', { count: plan.DurationMonths })}</span>
      </p>
      {offerPrice}
      <button
        type="button"
        className="button button--primary button--block"
        onClick={() => onChoose(plan)}
        disabled={busy}
        aria-busy={busy}
      >
        {t('plan.get')}
      </button>
      {trial}
    </article>
  );
}
