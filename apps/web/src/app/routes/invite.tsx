import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useSearchParams } from 'wouter';
import { Page, PageTitle } from '@/components/page';
import { LoginModal } from '@/features/accounts/components/login-modal';
import { JoinInvite } from '@/features/family/components/join-invite';
import { storeSharedCode } from '@/features/family/hooks/use-shared-code';
import { useSession } from '@/lib/auth';
import { SHARED_CODE_KEY } from '@/lib/session';

function storedCode(): string | null {
  try {
    return sessionStorage.getItem(SHARED_CODE_KEY);
  } catch {
    return null;
  }
}

/** Signing in here keeps the visitor on /invite: the session change shows the join block. */
const stayOnInvite = () => {};

/**
 * /invite?code=… (product.md §2/§4): the code is kept in sessionStorage as `sharedCode`; a signed-in
 * user gets the 'join premium' block, a visitor sees login/register first.
 */
export default function InvitePage() {
  const { t } = useTranslation('common');
  const { t: tFamily } = useTranslation('family');
  const [params] = useSearchParams();
  const session = useSession();
  const [showLogin, setShowLogin] = useState(true);
  // Store once, before the join block first reads it.
  const [hasCode] = useState(() => {
    const code = params.get('code')?.trim();
    if (code) storeSharedCode(code);
    return Boolean(code || storedCode());
  });

  return (
    <Page narrow>
      <PageTitle>{t('pages.invite')}</PageTitle>
      {!hasCode ? (
        <p>{tFamily('invite-page.missing')}</p>
      ) : session ? (
        <>
          <JoinInvite />
          <Link href="/profile">{tFamily('invite-page.to-profile')}</Link>
        </>
      ) : (
        <>
          <p>{tFamily('invite-page.visitor')}</p>
          <button type="button" className="button button--primary" onClick={() => setShowLogin(true)}>
            {tFamily('invite-page.login')}
          </button>
          {showLogin && <LoginModal onSignedIn={stayOnInvite} onClose={() => setShowLogin(false)} />}
        </>
      )}
    </Page>
  );
}
