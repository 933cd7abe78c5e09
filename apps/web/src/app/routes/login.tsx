import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Redirect, useLocation } from 'wouter';
import { Page, PageTitle } from '@/components/page';
import { LoginModal } from '@/features/accounts/components/login-modal';
import { readSession } from '@/lib/session';

/** /login (product.md §2): the login-or-register modal; a signed-in user goes to /profile. */
export default function LoginPage() {
  const { t } = useTranslation('common');
  // Only a session held on arrival redirects. A sign-in made here ends with its own full reload
  // of /profile (product.md §4, goToProfile); redirecting as soon as it writes the session would show
  // /profile twice, the first one thrown away mid-load by that reload.
  const [signedInOnArrival] = useState(() => readSession() !== null);
  const [, navigate] = useLocation();
  if (signedInOnArrival) return <Redirect to="/profile" />;
  return (
    <Page>
      <PageTitle className="visually-hidden">{t('pages.login')}</PageTitle>
      <LoginModal onClose={() => navigate('/')} />
    </Page>
  );
}
