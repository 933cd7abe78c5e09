import { useTranslation } from 'react-i18next';
import { Link, useLocation } from 'wouter';
import { useIsSubscribed } from '@/lib/auth';

/** The site's main links (product.md §2); Premium is hidden once the user is subscribed. */
export function NavLinks({
  onNavigate,
  includeHome = false,
}: {
  onNavigate?: () => void;
  includeHome?: boolean;
}) {
  const { t } = useTranslation('common');
  const subscribed = useIsSubscribed();
  const [location] = useLocation();
  const links = [
    ...(includeHome ? [{ href: '/', label: t('nav.home') }] : []),
    ...(subscribed ? [] : [{ href: '/premium', label: t('nav.premium') }]),
    { href: '/help/tos', label: t('nav.terms') },
    { href: '/help/faq', label: t('nav.faq') },
    { href: '/contact', label: t('nav.contact') },
  ];
  return (
    <ul className="nav-links">
      {links.map((link) => (
        <li key={link.href}>
          <Link
            href={link.href}
            className="nav-links__link"
            aria-current={location === link.href ? 'page' : undefined}
            onClick={onNavigate}
          >
            {link.label}
          </Link>
        </li>
      ))}
    </ul>
  );
}
