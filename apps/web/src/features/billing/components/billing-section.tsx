import type { Billing } from '@tunes/shared/billing';
import type { Profile } from '@tunes/shared/profile';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { currentSubscription } from '@/lib/auth';
import { useBilling } from '../api/get-billing';
import { usePayments } from '../api/get-payments';
import styles from './billing.module.css';
import { CardOnFile } from './card-on-file';
import { CardReturnNotice } from './card-return-notice';
import { ChangePlan } from './change-plan';
import { FailedRenewal } from './failed-renewal';
import { PausePremium } from './pause-premium';
import { PaymentHistory } from './payment-history';
import { RenewalSummary } from './renewal-summary';

/**
 * The billing block of /profile (product.md §12): for the owner of a plan bought here, the next
 * charge (or its end with Resume), a failed renewal with Pay now, the card on file, plan change;
 * for everyone with payments, their history with receipts. A member of someone else's plan has
 * nothing to control here.
 */
export function BillingSection({
  profile,
  notice,
  extras,
}: {
  profile: Profile;
  /** What came back from a provider's page beside the card's (a free trial's save-card page). */
  notice?: ReactNode;
  /** What other features show of the owner's billing (a trial, an offer: issue 38), after the next charge. */
  extras?: (billing: Billing) => ReactNode;
}) {
  const { t } = useTranslation('billing');
  const subscription = currentSubscription(profile);
  const member = subscription?.Role === 'member';
  const version = subscription
    ? [
        subscription.SubscriptionId,
        subscription.EndDate,
        subscription.IsAutoRenew,
        subscription.PackageCost.MerchantCode,
      ].join(':')
    : 'none';
  const billing = useBilling(version, !member);
  const payments = usePayments();

  const renewal = member ? null : (billing.data?.renewal ?? null);
  const card = member ? null : (billing.data?.card ?? null);
  // The profile's first subscription is the plan in force; its code is what "keep my plan" sends.
  const currentCode =
    renewal && subscription?.SubscriptionId === renewal.subscriptionId
      ? subscription.PackageCost.MerchantCode
      : undefined;
  const hasPayments = (payments.data?.length ?? 0) > 0;
  if (!renewal && !card && !hasPayments) {
    if (billing.isError || payments.isError) {
      return (
        <section className={`card ${styles.section}`} aria-labelledby="billing-title">
          <h2 id="billing-title">{t('title')}</h2>
          <p role="alert">{t('load-failed')}</p>
        </section>
      );
    }
    return billing.isSuccess ? (
      <section className={`card ${styles.section}`} aria-labelledby="billing-title">
        <h2 id="billing-title">{t('title')}</h2>
        <CardReturnNotice />
        {notice}
      </section>
    ) : null;
  }

  return (
    <section className={`card ${styles.section}`} aria-labelledby="billing-title">
      <h2 id="billing-title">{t('title')}</h2>
      <CardReturnNotice />
      {notice}
      {renewal?.failedRenewal && <FailedRenewal renewal={renewal} failed={renewal.failedRenewal} />}
      {renewal && <RenewalSummary renewal={renewal} card={card} currentCode={currentCode} />}
      {!member && billing.data && extras?.(billing.data)}
      {!member && (renewal || card) && <CardOnFile card={card} renewal={renewal} />}
      {!member && (
        <PausePremium version={version} amount={renewal?.amount ?? 0} currency={renewal?.currency ?? 'MNT'} />
      )}
      {renewal && !renewal.failedRenewal && subscription && currentCode && (
        <ChangePlan
          subscription={subscription}
          renewal={renewal}
          hasCard={card !== null}
          trialUntil={billing.data?.trial?.endsAt ?? null}
        />
      )}
      {hasPayments && <PaymentHistory payments={payments.data ?? []} />}
    </section>
  );
}
