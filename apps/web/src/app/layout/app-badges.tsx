import { useSyncExternalStore } from 'react';
import { useTranslation } from 'react-i18next';

const APP_STORE_URL = 'https://apps.apple.com/mn/app/tunes';
const PLAY_STORE_URL = 'https://play.google.com/store/apps/details?id=mn.tunes';

type Platform = 'ios' | 'android' | 'desktop';

export function detectPlatform(userAgent: string): Platform {
  if (/iPhone|iPad|iPod/i.test(userAgent) || (/Macintosh/.test(userAgent) && /Mobile/.test(userAgent)))
    return 'ios';
  if (/Android/i.test(userAgent)) return 'android';
  return 'desktop';
}

function Badge({ href, label, store }: { href: string; label: string; store: 'apple' | 'google' }) {
  return (
    <a className="store-badge" href={href} target="_blank" rel="noopener noreferrer" aria-label={label}>
      <svg viewBox="0 0 24 24" width="22" height="22" aria-hidden="true" focusable="false">
        {store === 'apple' ? (
          <path
            fill="currentColor"
            d="M16.4 12.6c0-2.4 2-3.6 2.1-3.6-1.1-1.7-2.9-1.9-3.5-1.9-1.5-.2-2.9.9-3.7.9-.8 0-1.9-.9-3.2-.8-1.6 0-3.1 1-4 2.4-1.7 3-.4 7.4 1.2 9.8.8 1.2 1.8 2.5 3 2.4 1.2 0 1.7-.8 3.1-.8 1.5 0 1.9.8 3.2.8 1.3 0 2.2-1.2 3-2.4.9-1.4 1.3-2.7 1.3-2.8 0 0-2.5-1-2.5-4zM14 5.5c.7-.8 1.1-1.9 1-3-1 0-2.1.7-2.8 1.5-.6.7-1.2 1.8-1 2.9 1.1.1 2.1-.6 2.8-1.4z"
          />
        ) : (
          <path
            fill="currentColor"
            d="M4 2.5v19l10-9.5L4 2.5zm11.5 8L6.8 3.3l10.6 6.1-1.9 1.1zm0 3l1.9 1.1-10.6 6.1 8.7-7.2zm3.2-2.4L21 12l-2.3 1.4-2-1.4 2-1.3z"
          />
        )}
      </svg>
      <span>{label}</span>
    </a>
  );
}

/** Apple and Google badges on a computer; only the phone's own store on iOS or Android (product.md §2). */
const noSubscription = () => () => {};

export function AppBadges() {
  const { t } = useTranslation('common');
  // A prerendered page shows both badges (as on a computer); a phone narrows them once hydrated.
  const platform = useSyncExternalStore(
    noSubscription,
    () => detectPlatform(navigator.userAgent),
    (): Platform => 'desktop',
  );
  return (
    <div className="store-badges">
      {platform !== 'android' && (
        <Badge href={APP_STORE_URL} label={t('badge.download-app-store')} store="apple" />
      )}
      {platform !== 'ios' && (
        <Badge href={PLAY_STORE_URL} label={t('badge.download-play-store')} store="google" />
      )}
    </div>
  );
}
