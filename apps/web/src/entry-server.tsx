import { Readable } from 'node:stream';
import { type DehydratedState, dehydrate, QueryClient } from '@tanstack/react-query';
import type { Language } from '@tunes/shared/constants';
import type { ReactNode } from 'react';
import { renderToString } from 'react-dom/server';
import { prerenderToNodeStream } from 'react-dom/static';
import { Router } from 'wouter';
import { App } from './app/app';
import { isPagePath, routeOf } from './app/router';
import { setApiTransport } from './lib/api-client';
import { i18n, initI18n, NAMESPACES } from './lib/i18n';

/**
 * Renders a static page (landing, plans, help, terms, contact) to HTML on the server with the
 * same React code the browser hydrates, so search engines, link previews and the first paint
 * get the page's text before any script runs. The server (apps/server/src/plugins/prerender.ts)
 * calls one render at a time: the language and the API transport are process-wide.
 */

export interface PreparedPage {
  client: QueryClient;
  /** The page's data as rendered; equal keys mean an equal page. */
  dataKey: string;
}

export interface RenderedPage {
  html: string;
  state: DehydratedState;
}

let i18nReady: Promise<unknown> | undefined;

async function renderToHtml(page: ReactNode): Promise<string> {
  const { prelude } = await prerenderToNodeStream(page);
  let html = '';
  for await (const chunk of Readable.from(prelude)) html += String(chunk);
  return html;
}

/** Runs the route's first API calls (through `api`, in `language`) and waits for their answers. */
export async function preparePage(
  path: string,
  language: Language,
  api: { origin: string; fetch: typeof fetch },
): Promise<PreparedPage> {
  setApiTransport(api.origin, api.fetch);
  const route = routeOf(path);
  const client = new QueryClient({ defaultOptions: { queries: { retry: false, staleTime: 60_000 } } });
  route.prefetch?.(client, language);
  await route.page.preload();
  // Prefetches chain (merchants, then plans): wait until nothing is in flight.
  while (client.isFetching() > 0) await new Promise((resolve) => setTimeout(resolve, 1));
  const data = client
    .getQueryCache()
    .getAll()
    .map((query) => [query.queryKey, query.state.status, query.state.data]);
  return { client, dataKey: JSON.stringify(data) };
}

export async function renderPage(
  path: string,
  language: Language,
  { client }: PreparedPage,
): Promise<RenderedPage> {
  i18nReady ??= initI18n(language, NAMESPACES);
  await i18nReady;
  if (i18n.language !== language) await i18n.changeLanguage(language);
  const page = (
    <Router ssrPath={path}>
      <App client={client} />
    </Router>
  );
  // The first pass waits for everything the page suspends on (its lazy parts, its catalogues),
  // which stays cached. A part that suspended is streamed as a fallback plus a script that swaps
  // it in — which a reader without JavaScript never runs and our CSP forbids — so the HTML comes
  // from a second, synchronous pass that finds everything ready.
  await renderToHtml(page);
  return { html: renderToString(page), state: dehydrate(client) };
}

/** Whether the site has a page at `path` (the router's own list); the server answers 404 if not. */
export function isPage(path: string): boolean {
  return isPagePath(path);
}
