import type { Billing } from '@tunes/shared/billing';
import { PAYMENT_CURRENCY } from '@tunes/shared/constants';
import { lazy, Suspense } from 'react';
import { useTranslation } from 'react-i18next';
import { Page, PageTitle } from '@/components/page';
import { ProfileDetails } from '@/features/accounts/components/profile-details';
import { BillingSection } from '@/features/billing/components/billing-section';
import { FamilyPlan } from '@/features/family/components/family-plan';
import { JoinInvite } from '@/features/family/components/join-invite';
import { LeavePlan } from '@/features/family/components/leave-plan';
import { SubscriptionOfferSummary } from '@/features/offers/components/subscription-offer';
import type { SubscriptionOffer } from '@/features/offers/types';
import { SubscriptionStatus } from '@/features/premium/components/subscription-status';
import { TrialReturnNotice, TrialSummary } from '@/features/trials/components/trial-summary';
import type { SubscriptionTrial } from '@/features/trials/types';
import { currentSubscription, useProfile } from '@/lib/auth';

/**
 * Below the profile's own blocks and not needed to read them: their own chunks, loaded after the
 * first paint and shown together (the voucher box brings the form library, 13 KB).
 */
const VoucherBox = lazy(() =>
  import('@/features/vouchers/components/voucher-box').then((module) => ({ default: module.VoucherBox })),
);
const AccountSettings = lazy(() =>
  import('@/features/accounts/components/account-settings').then((module) => ({
    default: module.AccountSettings,
  })),
);

/** The billing answer's free trial and offer (issue 38), when the server sends them. */
type BillingWithExtras = Billing & { trial?: SubscriptionTrial | null; offer?: SubscriptionOffer | null };

/** A free trial (trials) and an offer (offers) on the owner's plan, in the billing block. */
function trialAndOffer(billing: BillingWithExtras) {
  const currency = billing.renewal?.currency ?? PAYMENT_CURRENCY;
  return (
    <>
      {billing.trial && <TrialSummary trial={billing.trial} currency={currency} />}
      {billing.offer && <SubscriptionOfferSummary offer={billing.offer} currency={currency} />}
    </>
  );
}

/**
 * /profile composes the features: account details (accounts), subscription (premium),
 * vouchers, the family plan or a member's leave (family), and the account's self-service
 * (accounts: password, devices, data, deletion). The accounts feature owns this page's layout.
 * Visitors are sent to / by the router (product.md §6).
 */
export default function ProfilePage() {
  const { t } = useTranslation('common');
  const { data: profile, isPending } = useProfile();
  return (
    <Page>
      <PageTitle>{t('pages.profile')}</PageTitle>
      {isPending && <p role="status">{t('loading')}</p>}
      {profile && (
        <>
          <ProfileDetails profile={profile} />
          <SubscriptionStatus profile={profile} />
          <BillingSection profile={profile} notice={<TrialReturnNotice />} extras={trialAndOffer} />
          <JoinInvite />
          <FamilyPlan profile={profile} />
          <LeavePlan profile={profile} />
          <Suspense fallback={null}>
            {/* A member holds a plan, so a voucher could only be refused (product.md §14). */}
            {currentSubscription(profile)?.Role !== 'member' && <VoucherBox />}
            <AccountSettings profile={profile} />
          </Suspense>
        </>
      )}
    </Page>
  );
}
