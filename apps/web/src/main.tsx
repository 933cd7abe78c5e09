import { StrictMode, startTransition } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './app/app';
import { preloadRoute, routeOf } from './app/router';
import { initI18n } from './lib/i18n';
import { queryClient } from './lib/query-client';
import './styles/global.css';

/** Spec §2: any service worker left by an earlier site on this origin is unregistered. */
function unregisterServiceWorkers() {
  if (!('serviceWorker' in navigator)) return;
  navigator.serviceWorker
    .getRegistrations()
    .then((registrations) => Promise.all(registrations.map((registration) => registration.unregister())))
    .catch(() => {});
}

unregisterServiceWorkers();
// The first page's code, texts and data load together; the page renders once code and texts are
// in — or failed to come, so a network failure still shows the site, never a blank page.
const { pathname } = location;
void Promise.allSettled([
  initI18n(undefined, routeOf(pathname).namespaces),
  preloadRoute(pathname, queryClient),
]).then(() => {
  const root = document.getElementById('root');
  if (!root) throw new Error('#root is missing from index.html');
  // A transition: React renders the first page in slices and lets the browser breathe between
  // them, rather than one long task on a slow phone (TBT, DESIGN §6).
  startTransition(() => {
    createRoot(root).render(
      <StrictMode>
        <App />
      </StrictMode>,
    );
  });
});
