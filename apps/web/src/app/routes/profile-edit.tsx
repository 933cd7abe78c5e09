import { useTranslation } from 'react-i18next';
import { Redirect } from 'wouter';
import { Page, PageTitle } from '@/components/page';
import { ProfileEditForm } from '@/features/accounts/components/profile-edit-form';
import { useProfile, useSession } from '@/lib/auth';

/** /profile-edit (product.md §2): visitors go to /. */
export default function ProfileEditPage() {
  const { t } = useTranslation('common');
  const session = useSession();
  const { data: profile, isPending } = useProfile();
  if (!session) return <Redirect to="/" />;
  return (
    <Page narrow>
      <PageTitle>{t('pages.profile-edit')}</PageTitle>
      {isPending && <p role="status">{t('loading')}</p>}
      {profile && <ProfileEditForm key={profile.UserId} profile={profile} />}
    </Page>
  );
}
