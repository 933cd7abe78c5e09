import { isSubscriptionActive, localized } from '@tunes/shared/premium-rules';
import type { Profile, SubscriptionView } from '@tunes/shared/profile';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'wouter';
import { ConfirmDialog } from '@/components/confirm-dialog';
import { currentSubscription } from '@/lib/auth';
import { formatDate } from '@/lib/format';
import { toast } from '@/lib/toast';
import { useCancelSubscription } from '../api/cancel-subscription';
import { usePausedUntil } from '../api/get-pause';
import styles from './premium.module.css';
import { StoreNote } from './store-note';

/**
 * The subscription block of /profile (product.md §2/§4): Active or Inactive; while the end date is in
 * the future the package, dates and auto-renew; the store note; Go Premium without one (or when
 * the last one ended, for a lapsed listener); and
 * cancelling Premium for the owner of a card subscription that still renews.
 */
export function SubscriptionStatus({ profile }: { profile: Profile }) {
  const { t, i18n } = useTranslation('premium');
  const subscription = currentSubscription(profile);
  const active = subscription ? isSubscriptionActive(subscription) : false;
  const pausedUntil = usePausedUntil(!subscription && profile.PremiumEndedAt !== null);
  return (
    <section className={`card ${styles.status}`} aria-labelledby="subscription-title">
      <h2 id="subscription-title">{t('status.title')}</h2>
      <dl className={styles.details}>
        <div>
          <dt>{t('status.label')}</dt>
          <dd className={active ? styles.active : styles.inactive}>
            {active ? t('status.active') : t('status.inactive')}
          </dd>
        </div>
        {subscription && new Date(subscription.EndDate) > new Date() && (
          <PeriodDetails subscription={subscription} />
        )}
      </dl>
      <StoreNote subscription={subscription} />
      {!subscription && (
        <>
          {/* A lapsed listener had Premium: not "not yet", but when it ended and the way back. */}
          <p>
            {pausedUntil
              ? t('status.paused', { date: formatDate(pausedUntil, i18n.language) })
              : profile.PremiumEndedAt
                ? t('status.ended', { date: formatDate(profile.PremiumEndedAt, i18n.language) })
                : t('status.none')}
          </p>
          <Link href="/premium" className="button button--primary">
            {t('status.go-premium')}
          </Link>
        </>
      )}
      {subscription && <CancelPremium userId={profile.UserId} subscription={subscription} />}
    </section>
  );
}

function PeriodDetails({ subscription }: { subscription: SubscriptionView }) {
  const { t, i18n } = useTranslation('premium');
  const language = i18n.language;
  return (
    <>
      <div>
        <dt>{t('status.package')}</dt>
        <dd>{localized(subscription.PackageCost.Name, language)}</dd>
      </div>
      <div>
        <dt>{t('status.start')}</dt>
        <dd>{formatDate(subscription.StartDate, language)}</dd>
      </div>
      <div>
        <dt>{t('status.end')}</dt>
        <dd>{formatDate(subscription.EndDate, language)}</dd>
      </div>
      {/* A member does not pay for the plan, so its renewal is not theirs to read (product.md §14). */}
      {subscription.Role === 'member' ? (
        <div>
          <dt>{t('status.paid-by')}</dt>
          <dd>{t('status.paid-by-owner')}</dd>
        </div>
      ) : (
        <div>
          <dt>{t('status.auto-renew')}</dt>
          <dd>{subscription.IsAutoRenew ? t('status.yes') : t('status.no')}</dd>
        </div>
      )}
    </>
  );
}

function CancelPremium({ userId, subscription }: { userId: string; subscription: SubscriptionView }) {
  const { t, i18n } = useTranslation('premium');
  const cancel = useCancelSubscription(userId);
  const [confirming, setConfirming] = useState(false);
  const endDate = formatDate(subscription.EndDate, i18n.language);
  const source = subscription.Source.SourceType;

  if (subscription.Role === 'member') return <p className={styles.note}>{t('status.member')}</p>;
  if (source === 'Voucher') return <p className={styles.note}>{t('status.voucher', { date: endDate })}</p>;
  if (!subscription.IsAutoRenew)
    return <p className={styles.note}>{t('status.cancelled', { date: endDate })}</p>;
  // App Store and Google Play subscriptions are cancelled in the store (the store note says so).
  if (source === 'Apple IAP' || source === 'Google Play') return null;

  const onConfirm = () =>
    cancel.mutate(subscription.SubscriptionId, {
      onSuccess: () => toast.success(t('status.cancel-success')),
      onSettled: () => setConfirming(false),
    });
  // How it renews (the saved card or a payment link) is the billing section's (features/billing).
  return (
    <>
      <button
        type="button"
        className="button button--danger"
        aria-haspopup="dialog"
        onClick={() => setConfirming(true)}
        disabled={cancel.isPending}
        aria-busy={cancel.isPending}
      >
        {cancel.isPending ? t('status.cancelling') : t('status.cancel')}
      </button>
      {confirming && (
        <ConfirmDialog
          title={t('status.cancel-confirm-title')}
          confirmLabel={cancel.isPending ? t('status.cancelling') : t('status.cancel')}
          cancelLabel={t('status.cancel-keep')}
          busy={cancel.isPending}
          danger
          onConfirm={onConfirm}
          onCancel={() => setConfirming(false)}
        >
          <p>{t('status.cancel-confirm', { date: endDate })}</p>
        </ConfirmDialog>
      )}
    </>
  );
}
