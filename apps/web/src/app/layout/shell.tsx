import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Footer } from './footer';
import { Header } from './header';
import { LanguageSwitcher } from './language-switcher';

export function Shell({ children }: { children: ReactNode }) {
  const { t } = useTranslation('common');
  return (
    <>
      <a className="skip-link" href="#main">
        {t('a11y.skip-to-content')}
      </a>
      <LanguageSwitcher />
      <Header />
      <main id="main" tabIndex={-1}>
        {children}
      </main>
      <Footer />
    </>
  );
}
