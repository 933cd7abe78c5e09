import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'wouter';
import { useProfile, useSession } from '@/lib/auth';
import { Logo } from './logo';
import { MobileMenu } from './mobile-menu';
import { NavLinks } from './nav-links';

/** Login button for visitors; Profile link once signed in with a profile that loaded (product.md §2). */
function AccountLink() {
  const { t } = useTranslation('common');
  const session = useSession();
  const profile = useProfile();
  if (session && !profile.isError) {
    return (
      <Link href="/profile" className="button button--ghost">
        {t('nav.profile')}
      </Link>
    );
  }
  return (
    <Link href="/login" className="button button--primary">
      {t('nav.login')}
    </Link>
  );
}

export function Header() {
  const { t } = useTranslation('common');
  const [menuOpen, setMenuOpen] = useState(false);
  return (
    <header className="header">
      <div className="header__inner">
        <Logo />
        <nav className="header__nav" aria-label={t('nav.main')}>
          <NavLinks />
        </nav>
        <div className="header__actions">
          <AccountLink />
          <button
            type="button"
            className="header__menu-button"
            aria-label={t('nav.open-menu')}
            aria-expanded={menuOpen}
            aria-controls="mobile-menu"
            onClick={() => setMenuOpen(true)}
          >
            <svg viewBox="0 0 24 24" width="24" height="24" aria-hidden="true" focusable="false">
              <path d="M3 6h18M3 12h18M3 18h18" stroke="currentColor" strokeWidth="2" strokeLinecap="round" />
            </svg>
          </button>
        </div>
      </div>
      <MobileMenu open={menuOpen} onClose={() => setMenuOpen(false)} />
    </header>
  );
}
