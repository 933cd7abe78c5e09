import { existsSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import fastifyStatic from '@fastify/static';
import { ERROR_CODES, type ErrorBody } from '@tunes/shared/errors';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';

const DEFAULT_WEB_DIST = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../../web/dist');
const NON_SPA_PREFIXES = ['/api/', '/dev/', '/sandbox-gateway/'];
const YEAR_SECONDS = 31_536_000;

/**
 * Serves the built site: hashed files under /assets for a year, everything else revalidated;
 * any other GET that is not an API path falls back to index.html so the site's router decides.
 */
export const webApp = fp(async (app: FastifyInstance) => {
  const root = path.resolve(app.deps.config.WEB_DIST_DIR ?? DEFAULT_WEB_DIST);
  const hasSite = existsSync(path.join(root, 'index.html'));

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

  app.setNotFoundHandler((request, reply) => {
    const pathname = request.url.split('?')[0] ?? '/';
    const isSpaPath = !NON_SPA_PREFIXES.some((prefix) => `${pathname}/`.startsWith(prefix));
    if (hasSite && isSpaPath && (request.method === 'GET' || request.method === 'HEAD')) {
      return reply.header('cache-control', 'no-cache').type('text/html').sendFile('index.html');
    }
    const body: ErrorBody = {
      error: ERROR_CODES.notFound,
      message: `No route for ${request.method} ${pathname}`,
    };
    return reply.code(404).send(body);
  });
});
