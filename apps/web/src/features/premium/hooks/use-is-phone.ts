import { useSyncExternalStore } from 'react';

/** A phone: a narrow screen or a touch screen (QPay then shows bank-app buttons, not the QR). */
const PHONE_QUERY = '(max-width: 640px), (pointer: coarse)';

function subscribe(onChange: () => void) {
  const query = window.matchMedia(PHONE_QUERY);
  query.addEventListener('change', onChange);
  return () => query.removeEventListener('change', onChange);
}

export function useIsPhone(): boolean {
  return useSyncExternalStore(
    subscribe,
    () => window.matchMedia(PHONE_QUERY).matches,
    () => false,
  );
}
