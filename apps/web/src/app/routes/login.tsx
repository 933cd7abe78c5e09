import { useTranslation } from 'react-i18next';
import { Redirect, useLocation } from 'wouter';
import { Page, PageTitle } from '@/components/page';
import { LoginModal } from '@/features/accounts/components/login-modal';
import { useSession } from '@/lib/auth';

/** /login (product.md §2): the login-or-register modal; a signed-in user goes to /profile. */
export default function LoginPage() {
  const { t } = useTranslation('common');
  const session = useSession();
  const [, navigate] = useLocation();
  if (session) return <Redirect to="/profile" />;
  return (
    <Page>
      <PageTitle className="visually-hidden">{t('pages.login')}</PageTitle>
      <LoginModal onClose={() => navigate('/')} />
    </Page>
  );
}
