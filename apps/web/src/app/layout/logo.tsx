import { useTranslation } from 'react-i18next';
import { Link } from 'wouter';

export function Logo() {
  const { t } = useTranslation('common');
  return (
    <Link href="/" className="logo" aria-label={t('nav.home-label')}>
      <svg viewBox="0 0 32 32" width="32" height="32" aria-hidden="true" focusable="false">
        <rect width="32" height="32" rx="8" fill="var(--accent)" />
        <path
          d="M12 22V9l12-3v13"
          fill="none"
          stroke="var(--bg)"
          strokeWidth="2.5"
          strokeLinecap="round"
          strokeLinejoin="round"
        />
        <circle cx="9.5" cy="22" r="3" fill="var(--bg)" />
        <circle cx="21.5" cy="19" r="3" fill="var(--bg)" />
      </svg>
      <span className="logo__text">{t('brand')}</span>
    </Link>
  );
}
