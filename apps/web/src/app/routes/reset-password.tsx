import { useTranslation } from 'react-i18next';
import { useSearch } from 'wouter';
import { Page, PageTitle } from '@/components/page';
import { ResetPasswordForm } from '@/features/accounts/components/reset-password-form';

/** /reset-password?token=… : the page the e-mailed reset link opens. */
export default function ResetPasswordPage() {
  const { t } = useTranslation('common');
  const token = new URLSearchParams(useSearch()).get('token');
  return (
    <Page narrow>
      <PageTitle>{t('pages.reset-password')}</PageTitle>
      <ResetPasswordForm token={token} />
    </Page>
  );
}
