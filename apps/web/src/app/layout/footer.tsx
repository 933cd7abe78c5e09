import { useTranslation } from 'react-i18next';
import { Link } from 'wouter';
import { WholeValue } from '@/components/whole-value';
import { logout, useSession } from '@/lib/auth';
import type { TranslationKey } from '@/lib/i18n';
import { AppBadges } from './app-badges';
import { Logo } from './logo';

const SOCIAL_LINKS = [
  { label: 'social.mail', href: 'mailto:hello@tunes.mn' },
  { label: 'social.facebook', href: 'https://www.facebook.com/tunes.mn' },
  { label: 'social.instagram', href: 'https://www.instagram.com/tunes.mn' },
] as const satisfies readonly { label: TranslationKey; href: string }[];

export function Footer() {
  const { t } = useTranslation('common');
  const session = useSession();
  return (
    <footer className="footer">
      <div className="footer__inner">
        <div className="footer__brand">
          <Logo />
          <p className="footer__tagline">{t('footer.tagline')}</p>
        </div>
        <nav className="footer__column" aria-labelledby="footer-help">
          <h2 id="footer-help" className="footer__heading">
            {t('footer.help')}
          </h2>
          <ul>
            <li>
              <Link href="/help/tos">{t('footer.terms-of-service')}</Link>
            </li>
            <li>
              <Link href="/help/faq">{t('footer.faq')}</Link>
            </li>
            <li>
              <Link href="/contact">{t('footer.contact-us')}</Link>
            </li>
          </ul>
        </nav>
        <div className="footer__column">
          <h2 className="footer__heading">{t('footer.phone')}</h2>
          <p>
            <a href={`tel:${t('contact-info.phone').replace(/\s/g, '')}`}>
              <WholeValue value={t('contact-info.phone')} kind="phone" />
            </a>
          </p>
          <h2 className="footer__heading">{t('footer.email')}</h2>
          <p>
            <a href={`mailto:${t('contact-info.email')}`}>
              <WholeValue value={t('contact-info.email')} kind="email" />
            </a>
          </p>
          <h2 className="footer__heading">{t('footer.address')}</h2>
          <p>{t('contact-info.address')}</p>
        </div>
        <div className="footer__column">
          <h2 className="footer__heading">{t('title.download-the-app')}</h2>
          <AppBadges />
          <ul className="footer__social" aria-label={t('footer.social')}>
            {SOCIAL_LINKS.map((link) => (
              <li key={link.href}>
                <a href={link.href} target="_blank" rel="noopener noreferrer">
                  {t(link.label)}
                </a>
              </li>
            ))}
          </ul>
        </div>
      </div>
      <div className="footer__bottom">
        <p>{t('copyright', { year: new Date().getFullYear() })}</p>
        {session && (
          <button type="button" className="button button--ghost" onClick={logout}>
            {t('button.logout')}
          </button>
        )}
      </div>
    </footer>
  );
}
