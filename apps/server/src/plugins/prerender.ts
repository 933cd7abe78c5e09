import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import type { FastifyInstance } from 'fastify';
import { type CachedAnswer, checkedWithin, toCachedBytes } from '../lib/answer-cache.js';
import { onContentPublished } from '../modules/content/content-events.js';

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
  page: CachedAnswer;
  /**
   * When (the server's clock, ms) its data was last asked for: it is served as it is while less
   * than `PAGE_FRESH_MS` older (`checkedWithin`).
   */
  checkedAt: number;
}

/**
 * How long a rendered page is served as it is, on the server's clock, as the API's own public
 * answers are (lib/answer-cache.ts): moving the development clock past it renders the page again.
 * A publish in this process drops it at once.
 */
const PAGE_FRESH_MS = 1000;

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
 * published landing page shows at once). A rendered page is kept ready to send (compressed, with
 * its ETag) and served as it is for `PAGE_FRESH_MS`; requests that arrive while it is being
 * prepared wait for that one preparation. Renders run one at a time (the renderer's language is
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
  const nowMs = () => app.deps.clock.now().getTime();
  const rendered = new Map<string, Rendered>();
  const preparing = new Map<string, Promise<CachedAnswer>>();
  const stopListening = onContentPublished(app.deps, () => {
    for (const page of rendered.values()) page.checkedAt = Number.NEGATIVE_INFINITY;
  });
  app.addHook('onClose', async () => stopListening());
  let queue: Promise<unknown> = Promise.resolve();

  async function render(pathname: string, language: Language, key: string): Promise<CachedAnswer> {
    const prepared = await renderer.preparePage(pathname, language, {
      origin: 'http://localhost',
      fetch: apiFetch,
    });
    const checkedAt = nowMs();
    const cached = rendered.get(key);
    if (cached && cached.dataKey === prepared.dataKey) {
      cached.checkedAt = checkedAt;
      return cached.page;
    }
    const { html, state } = await renderer.renderPage(pathname, language, prepared);
    const page = shell
      .replace('<html lang="en">', `<html lang="${language}">`)
      .replace(
        '<div id="root"></div>',
        `<div id="root">${html}</div><script type="application/json" id="ssr-state">${escapeJson({ language, state })}</script>`,
      );
    // The page depends on the language cookie; caches must keep one copy per cookie.
    const answer = toCachedBytes(Buffer.from(page), 'text/html; charset=utf-8', ['cookie']);
    rendered.set(key, { dataKey: prepared.dataKey, page: answer, checkedAt });
    return answer;
  }

  function prepare(pathname: string, language: Language, key: string): Promise<CachedAnswer> {
    const inFlight = preparing.get(key);
    if (inFlight) return inFlight;
    const next = queue.then(() => render(pathname, language, key));
    queue = next.catch(() => undefined);
    const shared = next.finally(() => preparing.delete(key));
    preparing.set(key, shared);
    return shared;
  }

  return {
    /** Whether the site has a page at the path: any other path is answered 404 (issue 19). */
    isPage(pathname: string): boolean {
      return renderer.isPage(pathname);
    },
    /** The page ready to send, or null when it cannot be rendered (the shell is served instead). */
    async page(pathname: string, cookieHeader: string | undefined): Promise<CachedAnswer | null> {
      // Until the database is ready (a first start), the shell answers at once instead.
      if (!databaseReady) return null;
      const language = languageOf(cookieHeader);
      const key = `${pathname}|${language}`;
      const fresh = rendered.get(key);
      if (fresh && checkedWithin(fresh.checkedAt, nowMs(), PAGE_FRESH_MS)) return fresh.page;
      try {
        return await prepare(pathname, language, key);
      } catch (error) {
        app.log.error({ err: error, path: pathname }, 'prerender failed; serving the shell');
        return null;
      }
    },
  };
}
