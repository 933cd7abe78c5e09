import { type ReactNode, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { toast } from 'sonner';
import { Link, useLocation } from 'wouter';
import { userMessage } from '@/lib/api-error';
import { adminApi, type Operator } from './api';
import { consoleQueryClient, meQueryKey, sectionPath, sectionsOf } from './session';

export function LanguageToggle() {
  const { t, i18n } = useTranslation('admin');
  const next = i18n.language === 'mn' ? 'en' : 'mn';
  return (
    <button
      type="button"
      className="button button--ghost admin-small"
      lang={next}
      onClick={() => void i18n.changeLanguage(next)}
    >
      {t('language.switch')}
    </button>
  );
}

/** The console's frame: navigation of the operator's sections, language, sign-out. */
export function ConsoleLayout({ operator, children }: { operator: Operator; children: ReactNode }) {
  const { t } = useTranslation('admin');
  const [location, navigate] = useLocation();
  const [leaving, setLeaving] = useState(false);

  async function signOut() {
    setLeaving(true);
    try {
      await adminApi('/session', { method: 'DELETE', public: true });
      consoleQueryClient.clear();
      consoleQueryClient.setQueryData(meQueryKey, null);
      navigate('/sign-in?signedOut=1');
    } catch (error) {
      toast.error(userMessage(error));
      setLeaving(false);
    }
  }

  return (
    <div className="admin-frame">
      <a className="skip-link" href="#admin-main">
        {t('skip')}
      </a>
      <header className="admin-header">
        <span className="admin-brand">{t('brand')}</span>
        <nav aria-label={t('nav.label')} className="admin-nav">
          {sectionsOf(operator.role).map((section) => {
            const path = sectionPath(section);
            const current = location === path || location.startsWith(`${path}/`);
            return (
              <Link key={section} href={path} aria-current={current ? 'page' : undefined}>
                {t(`nav.${section}`)}
              </Link>
            );
          })}
        </nav>
        <div className="admin-account">
          <span className="admin-muted">
            {operator.email} · {t(`roles.${operator.role}`)}
          </span>
          <LanguageToggle />
          <button
            type="button"
            className="button button--ghost admin-small"
            onClick={signOut}
            disabled={leaving}
          >
            {t('sign-out')}
          </button>
        </div>
      </header>
      <main id="admin-main" className="admin-main" tabIndex={-1}>
        {children}
      </main>
    </div>
  );
}
