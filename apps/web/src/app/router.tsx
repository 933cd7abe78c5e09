import type { QueryClient } from '@tanstack/react-query';
import type { Language } from '@tunes/shared/constants';
import { type ComponentType, useEffect } from 'react';
import { Redirect, Route, Switch, useLocation } from 'wouter';
import { prefetchContentCards } from '@/features/content/api/get-content-cards';
import { prefetchLandingPage } from '@/features/content/api/get-landing-page';
import { prefetchPlans } from '@/features/premium/api/get-plans';
import { useSession } from '@/lib/auth';
import { preparePriceFormat } from '@/lib/format';
import { type Namespace, storedLanguage } from '@/lib/i18n';
import { readSession } from '@/lib/session';
import { type LazyPage, lazyPage } from './lazy-page';

interface SiteRoute {
  /**
   * The exact path (or an anchored, case-sensitive pattern) of product.md §2: `/premium/` and
   * `/HELP/TOS` are not pages. None for the page of unknown paths.
   */
  path?: string | RegExp;
  page: LazyPage;
  /** The catalogues the page shows on its first render, loaded together with its code. */
  namespaces: readonly Namespace[];
  /** Starts the page's first API calls while its code and texts load. */
  prefetch?: (client: QueryClient, language: Language) => void;
  /**
   * A signed-in listener's page: a visitor is sent to / (product.md §6) without loading the
   * page's code or texts.
   */
  signedIn?: true;
}

/** Every route of product.md §2, each its own chunk so a page loads only its own code. */
const ROUTES: readonly SiteRoute[] = [
  {
    path: '/',
    page: lazyPage(() => import('./routes/landing')),
    namespaces: ['content'],
    prefetch: (client, language) => {
      prefetchLandingPage(client, language);
      prefetchContentCards(client, language);
    },
  },
  {
    path: '/premium',
    page: lazyPage(() => import('./routes/premium')),
    namespaces: ['premium'],
    prefetch: (client, language) => {
      prefetchPlans(client);
      preparePriceFormat(language);
    },
  },
  { path: '/invite', page: lazyPage(() => import('./routes/invite')), namespaces: ['family'] },
  {
    path: '/profile',
    page: lazyPage(() => import('./routes/profile')),
    signedIn: true,
    namespaces: ['accounts', 'premium', 'billing', 'ebarimt', 'family', 'vouchers'],
  },
  {
    path: '/profile-edit',
    page: lazyPage(() => import('./routes/profile-edit')),
    namespaces: ['accounts'],
    signedIn: true,
  },
  {
    path: /^\/receipts\/(?<invoiceId>[^/]+)$/,
    page: lazyPage(() => import('./routes/receipt')),
    namespaces: ['billing', 'ebarimt'],
  },
  { path: '/success', page: lazyPage(() => import('./routes/success')), namespaces: ['premium', 'ebarimt'] },
  { path: /^\/pay\/[^/]+$/, page: lazyPage(() => import('./routes/pay')), namespaces: ['premium'] },
  { path: '/failed', page: lazyPage(() => import('./routes/failed')), namespaces: ['premium'] },
  // One route for both addresses, so moving between them keeps the page (and its open answers).
  {
    path: /^\/help(?:\/faq)?$/,
    page: lazyPage(() => import('./routes/faq')),
    namespaces: ['content-help'],
  },
  { path: '/help/tos', page: lazyPage(() => import('./routes/terms')), namespaces: ['content-help'] },
  { path: '/login', page: lazyPage(() => import('./routes/login')), namespaces: ['accounts'] },
  { path: '/contact', page: lazyPage(() => import('./routes/contact')), namespaces: ['content'] },
  { path: '/phoneauth', page: lazyPage(() => import('./routes/phone-auth')), namespaces: ['accounts'] },
  {
    path: '/reset-password',
    page: lazyPage(() => import('./routes/reset-password')),
    namespaces: ['accounts'],
  },
  { page: lazyPage(() => import('./routes/not-found')), namespaces: [] },
];

/** The route of a path, matched exactly as product.md §2 lists it (case and trailing slash count). */
export function routeOf(pathname: string): SiteRoute {
  const matches = (route: SiteRoute) =>
    route.path instanceof RegExp ? route.path.test(pathname) : route.path === pathname;
  return ROUTES.find(matches) ?? (ROUTES.at(-1) as SiteRoute);
}

/**
 * The path the first render shows: `/` for a visitor who opened a signed-in listener's page, so
 * the landing page loads and paints at once instead of that page's code and a redirect.
 */
export function firstPath(pathname: string): string {
  return routeOf(pathname).signedIn && readSession() === null ? '/' : pathname;
}

/** Whether a path is one of the site's pages; the server answers 404 for any other. */
export function isPagePath(pathname: string): boolean {
  return routeOf(pathname).path !== undefined;
}

const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/**
 * wouter's own patterns ignore case and a trailing slash; a RegExp is used as it is, so each
 * literal path becomes an exact one.
 */
const exactPattern = (path: string | RegExp): RegExp =>
  path instanceof RegExp ? path : new RegExp(`^${escapeRegExp(path)}$`);

/**
 * Fetches the first page's code, texts and data in parallel, before the first render, so the
 * page paints whole instead of a loading state that it then replaces (layout shift, performance.md).
 */
export function preloadRoute(pathname: string, client: QueryClient): Promise<unknown> {
  const route = routeOf(pathname);
  route.prefetch?.(client, storedLanguage());
  // A failed chunk is retried by the lazy page when it renders.
  return route.page.preload().catch(() => undefined);
}

/** product.md §2: every route change scrolls to the top. */
function ScrollToTop() {
  const [location] = useLocation();
  // biome-ignore lint/correctness/useExhaustiveDependencies: runs on each location change by design.
  useEffect(() => {
    window.scrollTo(0, 0);
  }, [location]);
  return null;
}

/** A signed-in listener's page; a visitor, or a listener who signs out on it, goes to /. */
function SignedInPage({ page: Page }: { page: ComponentType }) {
  return useSession() ? <Page /> : <Redirect to="/" />;
}

export function AppRoutes() {
  return (
    <>
      <ScrollToTop />
      <Switch>
        {ROUTES.map((route) => (
          <Route
            key={String(route.path ?? '*')}
            path={route.path === undefined ? undefined : exactPattern(route.path)}
          >
            {route.signedIn ? <SignedInPage page={route.page.Page} /> : <route.page.Page />}
          </Route>
        ))}
      </Switch>
    </>
  );
}
