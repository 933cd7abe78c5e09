import { useTranslation } from 'react-i18next';
import { Page, PageTitle } from '@/components/page';
import { ProfileEditForm } from '@/features/accounts/components/profile-edit-form';
import { useProfile } from '@/lib/auth';

/** /profile-edit (product.md §2); the router sends visitors to /. */
export default function ProfileEditPage() {
  const { t } = useTranslation('common');
  const { data: profile, isPending } = useProfile();
  return (
    <Page narrow>
      <PageTitle>{t('pages.profile-edit')}</PageTitle>
      {isPending && <p role="status">{t('loading')}</p>}
      {profile && <ProfileEditForm key={profile.UserId} profile={profile} />}
    </Page>
  );
}
