import { useTranslation } from 'react-i18next';
import { Redirect } from 'wouter';
import { Page, PageTitle } from '@/components/page';
import { ProfileDetails } from '@/features/accounts/components/profile-details';
import { BillingSection } from '@/features/billing/components/billing-section';
import { FamilyPlan } from '@/features/family/components/family-plan';
import { JoinInvite } from '@/features/family/components/join-invite';
import { SubscriptionStatus } from '@/features/premium/components/subscription-status';
import { VoucherBox } from '@/features/vouchers/components/voucher-box';
import { useProfile, useSession } from '@/lib/auth';

/**
 * /profile composes the features: account details (accounts), subscription (premium),
 * vouchers, and the family plan (family). The accounts feature owns this page's layout.
 * Visitors are sent to / (product.md §6).
 */
export default function ProfilePage() {
  const { t } = useTranslation('common');
  const session = useSession();
  const { data: profile, isPending } = useProfile();
  if (!session) return <Redirect to="/" />;
  return (
    <Page>
      <PageTitle>{t('pages.profile')}</PageTitle>
      {isPending && <p role="status">{t('loading')}</p>}
      {profile && (
        <>
          <ProfileDetails profile={profile} />
          <SubscriptionStatus profile={profile} />
          <BillingSection profile={profile} />
          <JoinInvite />
          <FamilyPlan profile={profile} />
          <VoucherBox />
        </>
      )}
    </Page>
  );
}
