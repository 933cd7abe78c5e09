import { existsSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import fastifyStatic from '@fastify/static';
import { ERROR_CODES, type ErrorBody } from '@tunes/shared/errors';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { sendCachedAnswer } from '../lib/answer-cache.js';
import { createPrerenderer, PRERENDERED_PATHS } from './prerender.js';

const DEFAULT_WEB_DIST = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../../web/dist');
const NON_SPA_PREFIXES = ['/api/', '/dev/', '/sandbox-gateway/', '/sandbox-qpay/', '/sandbox-ebarimt/'];
const YEAR_SECONDS = 31_536_000;

/** The operator console's pages (DESIGN §9): its own HTML entry, never a listener page. */
export function isConsolePath(pathname: string): boolean {
  return pathname === '/admin' || pathname.startsWith('/admin/');
}

/**
 * Serves the built site: hashed files under /assets for a year, everything else revalidated;
 * any other GET that is not an API path falls back to index.html so the site's router decides.
 * A path that is none of the site's pages (the router's own list, through the prerenderer's
 * bundle) gets the same shell with status 404, so the not-found page shows and crawlers and
 * monitors see that nothing is there. `/admin` and `/admin/*` get the console's own page
 * (`admin.html`, a separate build: decision 0020), never prerendered.
 */
export const webApp = fp(async (app: FastifyInstance) => {
  const root = path.resolve(app.deps.config.WEB_DIST_DIR ?? DEFAULT_WEB_DIST);
  const hasSite = existsSync(path.join(root, 'index.html'));
  const hasConsole = existsSync(path.join(root, 'admin.html'));

  if (hasSite) {
    await app.register(fastifyStatic, {
      root,
      wildcard: false,
      index: false,
      preCompressed: true,
      setHeaders(res, filePath) {
        const immutable = filePath.includes(`${path.sep}assets${path.sep}`);
        res.header('cache-control', immutable ? `public, max-age=${YEAR_SECONDS}, immutable` : 'no-cache');
      },
    });
  } else {
    app.log.warn(`No built site in ${root}; run "npm run build" to serve the web app.`);
  }

  const prerenderer = hasSite ? await createPrerenderer(app, root) : null;

  app.setNotFoundHandler(async (request, reply) => {
    const pathname = request.url.split('?')[0] ?? '/';
    const isSpaPath = !NON_SPA_PREFIXES.some((prefix) => `${pathname}/`.startsWith(prefix));
    if (hasSite && isSpaPath && (request.method === 'GET' || request.method === 'HEAD')) {
      reply.header('cache-control', 'no-cache');
      if (hasConsole && isConsolePath(pathname)) {
        return reply.header('x-robots-tag', 'noindex').type('text/html').sendFile('admin.html');
      }
      const page = PRERENDERED_PATHS.has(pathname)
        ? await prerenderer?.page(pathname, request.headers.cookie)
        : null;
      if (page) return sendCachedAnswer(request, reply, page);
      // Without the prerenderer's bundle (a site built without it) every path is taken as a page.
      const isPage = prerenderer ? prerenderer.isPage(pathname) : true;
      return reply
        .code(isPage ? 200 : 404)
        .type('text/html')
        .sendFile('index.html');
    }
    const body: ErrorBody = {
      error: ERROR_CODES.notFound,
      message: `No route for ${request.method} ${pathname}`,
    };
    return reply.code(404).send(body);
  });
});
