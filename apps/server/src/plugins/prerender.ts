import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import type { FastifyInstance } from 'fastify';

/** The static routes served as HTML that already holds the page (product.md §2). */
export const PRERENDERED_PATHS = new Set(['/', '/premium', '/help', '/help/faq', '/help/tos', '/contact']);
const LANGUAGES = new Set(['en', 'mn']);

type Language = 'en' | 'mn';

/** What `apps/web/src/entry-server.tsx` exports, built to `apps/web/dist-ssr/entry-server.js`. */
interface Renderer {
  preparePage(
    path: string,
    language: Language,
    api: { origin: string; fetch: typeof fetch },
  ): Promise<{ dataKey: string }>;
  renderPage(
    path: string,
    language: Language,
    prepared: { dataKey: string },
  ): Promise<{ html: string; state: unknown }>;
  /** Whether the site's router has a page at the path (product.md §2, exact match). */
  isPage(path: string): boolean;
}

interface Rendered {
  dataKey: string;
  page: string;
}

const escapeJson = (value: unknown) =>
  JSON.stringify(value)
    .replace(/</g, '\\u003c')
    .replace(/\u2028/g, '\\u2028')
    .replace(/\u2029/g, '\\u2029');

/** The listener's language from the cookie the site keeps beside localStorage; English by default. */
function languageOf(cookieHeader: string | undefined): Language {
  const match = /(?:^|;\s*)lang=(en|mn)(?:;|$)/.exec(cookieHeader ?? '');
  const language = match?.[1];
  return language && LANGUAGES.has(language) ? (language as Language) : 'en';
}

/**
 * Serves the static routes prerendered by the site's own React code: the page's data is asked of
 * the API inside this process, and a page is rendered again only when its data changed (so a
 * published landing page shows at once). Renders run one at a time (the renderer's language is
 * process-wide). Without a renderer (no `npm run build` of the site) pages fall back to the shell.
 */
export async function createPrerenderer(app: FastifyInstance, webRoot: string) {
  const entry = path.join(webRoot, '..', 'dist-ssr', 'entry-server.js');
  const template = path.join(webRoot, 'index.html');
  if (!existsSync(entry) || !existsSync(template)) return null;
  const renderer = (await import(pathToFileURL(entry).href)) as Renderer;
  const shell = readFileSync(template, 'utf8');
  if (!shell.includes('<div id="root"></div>')) return null;

  const apiFetch: typeof fetch = async (input, init) => {
    const url = new URL(String(input), 'http://localhost');
    const answer = await app.inject({
      method: (init?.method ?? 'GET') as 'GET',
      url: url.pathname + url.search,
      headers: init?.headers as Record<string, string>,
    });
    return new Response(answer.statusCode === 204 ? null : answer.body, {
      status: answer.statusCode,
      headers: { 'content-type': String(answer.headers['content-type'] ?? 'application/json') },
    });
  };

  let databaseReady = false;
  app.deps.databaseReady.then(
    () => {
      databaseReady = true;
    },
    () => {},
  );
  const cache = new Map<string, Rendered>();
  let queue: Promise<unknown> = Promise.resolve();

  async function render(pathname: string, language: Language): Promise<string> {
    const prepared = await renderer.preparePage(pathname, language, {
      origin: 'http://localhost',
      fetch: apiFetch,
    });
    const key = `${pathname}|${language}`;
    const cached = cache.get(key);
    if (cached && cached.dataKey === prepared.dataKey) return cached.page;
    const { html, state } = await renderer.renderPage(pathname, language, prepared);
    const page = shell
      .replace('<html lang="en">', `<html lang="${language}">`)
      .replace(
        '<div id="root"></div>',
        `<div id="root">${html}</div><script type="application/json" id="ssr-state">${escapeJson({ language, state })}</script>`,
      );
    cache.set(key, { dataKey: prepared.dataKey, page });
    return page;
  }

  return {
    /** Whether the site has a page at the path: any other path is answered 404 (issue 19). */
    isPage(pathname: string): boolean {
      return renderer.isPage(pathname);
    },
    /** The page's HTML, or null when it cannot be rendered (the shell is served instead). */
    async page(pathname: string, cookieHeader: string | undefined): Promise<string | null> {
      // Until the database is ready (a first start), the shell answers at once instead.
      if (!databaseReady) return null;
      const language = languageOf(cookieHeader);
      const next = queue.then(() => render(pathname, language));
      queue = next.catch(() => undefined);
      try {
        return await next;
      } catch (error) {
        app.log.error({ err: error, path: pathname }, 'prerender failed; serving the shell');
        return null;
      }
    },
  };
}
