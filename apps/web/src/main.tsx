import { type DehydratedState, hydrate } from '@tanstack/react-query';
import type { Language } from '@tunes/shared/constants';
import { StrictMode, startTransition } from 'react';
import { createRoot, hydrateRoot } from 'react-dom/client';
import { App } from './app/app';
import { firstPath, preloadRoute, routeOf } from './app/router';
import { initI18n, storedLanguage } from './lib/i18n';
import { queryClient } from './lib/query-client';
import { readSession } from './lib/session';
import './styles/global.css';

/** product.md §2: any service worker left by an earlier site on this origin is unregistered. */
function unregisterServiceWorkers() {
  if (!('serviceWorker' in navigator)) return;
  navigator.serviceWorker
    .getRegistrations()
    .then((registrations) => Promise.all(registrations.map((registration) => registration.unregister())))
    .catch(() => {});
}

interface Prerendered {
  language: Language;
  state: DehydratedState;
}

/** The server's rendering of this page (apps/server/src/plugins/prerender.ts), if it sent one. */
function prerendered(): Prerendered | null {
  const script = document.getElementById('ssr-state');
  try {
    return script?.textContent ? (JSON.parse(script.textContent) as Prerendered) : null;
  } catch {
    return null;
  }
}

unregisterServiceWorkers();
const pathname = firstPath(location.pathname);
if (pathname !== location.pathname) history.replaceState(history.state, '', pathname);
const served = prerendered();
// The prerendered page is what a visitor sees in that language. It is hydrated as it is when
// this reader is such a visitor; a signed-in reader or another language gets the page rendered
// afresh over it (the same text, so the first paint still shows the page).
const hydrating = served !== null && served.language === storedLanguage() && readSession() === null;
if (served && hydrating) hydrate(queryClient, served.state);

// The first page's code, texts and data load together; the page renders once code and texts are
// in — or failed to come, so a network failure still shows the site, never a blank page.
void Promise.allSettled([
  initI18n(undefined, routeOf(pathname).namespaces),
  preloadRoute(pathname, queryClient),
]).then(() => {
  const root = document.getElementById('root');
  if (!root) throw new Error('#root is missing from index.html');
  const app = (
    <StrictMode>
      <App />
    </StrictMode>
  );
  // A transition: React renders the first page in slices and lets the browser breathe between
  // them, rather than one long task on a slow phone (TBT, performance.md).
  startTransition(() => {
    if (hydrating) hydrateRoot(root, app);
    else createRoot(root).render(app);
  });
});
