import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Redirect, useLocation, useSearch } from 'wouter';
import { Page, PageTitle } from '@/components/page';
import { goToProfile } from '@/features/accounts/api/sign-in';
import { LoginModal } from '@/features/accounts/components/login-modal';
import { readLoginQuery } from '@/lib/login-link';
import { readSession } from '@/lib/session';

/**
 * /login (product.md §2): the login-or-register modal; a signed-in user goes to /profile, or back
 * to the page named by `?next=` (the plans, when signing in from /premium). `?method=email`
 * opens the E-mail side (after a password reset).
 */
export default function LoginPage() {
  const { t } = useTranslation('common');
  const { method, next } = readLoginQuery(useSearch());
  // Only a session held on arrival redirects. A sign-in made here ends with its own full reload
  // of the next page (product.md §4, goToProfile); redirecting as soon as it writes the session would
  // show that page twice, the first one thrown away mid-load by that reload.
  const [signedInOnArrival] = useState(() => readSession() !== null);
  const [, navigate] = useLocation();
  if (signedInOnArrival) return <Redirect to={next ?? '/profile'} />;
  return (
    <Page>
      <PageTitle className="visually-hidden">{t('pages.login')}</PageTitle>
      <LoginModal
        initialMethod={method}
        onSignedIn={next ? () => window.location.assign(next) : goToProfile}
        onClose={() => navigate(next ?? '/')}
      />
    </Page>
  );
}
