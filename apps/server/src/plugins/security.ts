import type { IncomingMessage, ServerResponse } from 'node:http';
import compress from '@fastify/compress';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import helmet from 'helmet';

/** Hosts whose players the landing page embeds (music video and reels). */
const VIDEO_EMBED_HOSTS = [
  'https://www.youtube.com',
  'https://www.youtube-nocookie.com',
  'https://www.facebook.com',
];

type Middleware = ReturnType<typeof helmet>;

/** The headers a Helmet middleware sets on a response, collected from one dry run. */
function headersSetBy(middleware: Middleware): Record<string, string> {
  const headers: Record<string, string> = {};
  const response = {
    setHeader: (name: string, value: string | number | readonly string[]) => {
      headers[name.toLowerCase()] = String(value);
    },
    removeHeader: (name: string) => {
      delete headers[name.toLowerCase()];
    },
  };
  let failed: unknown;
  middleware({} as IncomingMessage, response as unknown as ServerResponse, (error?: unknown) => {
    failed = error;
  });
  if (failed) throw failed;
  return headers;
}

/** The two sets of security headers: for pages (documents) and for the API's answers. */
export interface SecurityHeaders {
  /** The site, the card and QPay stand-ins' pages, the API's docs page: CSP, HSTS, … */
  page: Record<string, string>;
  /** JSON (and artwork) under /api: nothing in them is a document, so nothing may load or frame. */
  api: Record<string, string>;
}

/** Both sets of security headers (HSTS in production), built once. */
export function securityHeadersFor(isProduction: boolean): SecurityHeaders {
  const hsts = isProduction ? { maxAge: 31_536_000, includeSubDomains: true } : false;
  return {
    page: headersSetBy(
      helmet({
        contentSecurityPolicy: {
          directives: {
            defaultSrc: ["'self'"],
            scriptSrc: ["'self'"],
            styleSrc: ["'self'", "'unsafe-inline'"],
            imgSrc: ["'self'", 'data:', 'https:'],
            fontSrc: ["'self'", 'data:'],
            connectSrc: ["'self'"],
            frameSrc: VIDEO_EMBED_HOSTS,
            mediaSrc: ["'self'", 'https:'],
            frameAncestors: ["'self'"],
            formAction: ["'self'"],
            objectSrc: ["'none'"],
            baseUri: ["'self'"],
            upgradeInsecureRequests: isProduction ? [] : null,
          },
        },
        hsts,
        crossOriginEmbedderPolicy: false,
      }),
    ),
    // OWASP's set for a REST API: a policy that allows nothing (an answer opened as a page runs
    // no script and cannot be framed), nosniff, same-origin resources, HSTS. Helmet's headers
    // that only a document reads (COOP, Origin-Agent-Cluster, DNS prefetch, the old IE and
    // Flash ones) are left off: ~700 bytes less on every API answer.
    api: headersSetBy(
      helmet({
        contentSecurityPolicy: {
          useDefaults: false,
          directives: { defaultSrc: ["'none'"], frameAncestors: ["'none'"] },
        },
        hsts,
        xFrameOptions: { action: 'deny' },
        crossOriginEmbedderPolicy: false,
        crossOriginOpenerPolicy: false,
        originAgentCluster: false,
        xDnsPrefetchControl: false,
        xDownloadOptions: false,
        xPermittedCrossDomainPolicies: false,
        xXssProtection: false,
      }),
    ),
  };
}

/** Whether `url` is the API's (JSON, artwork), not a page: everything under /api but its docs page. */
export function isApiUrl(url: string): boolean {
  return url.startsWith('/api/') && !url.startsWith('/api/docs');
}

/** The set of security headers an answer to `url` carries. */
export function securityHeadersForUrl(headers: SecurityHeaders, url: string): Record<string, string> {
  return isApiUrl(url) ? headers.api : headers.page;
}

/** Security headers, the request id, and response compression on every routed answer. */
export const security = fp(async (app: FastifyInstance, { headers }: { headers: SecurityHeaders }) => {
  // Helmet's headers do not vary by request (no nonces), so its middleware runs once and the
  // headers it sets are copied onto every answer: @fastify/helmet rebuilt the policy on every
  // request, and even a prebuilt middleware spent ~6 % of a cached answer's CPU (`npm run bench`).
  app.addHook('onRequest', (request, reply, done) => {
    reply.headers(securityHeadersForUrl(headers, request.url));
    reply.header('x-request-id', request.id);
    done();
  });
  // Clients send small JSON or form bodies as they are; decoding compressed request bodies is
  // not offered, which also spares every route the plugin's preParsing hook.
  app.addHook('onRoute', (route) => {
    route.decompress ??= false;
  });
  await app.register(compress, { global: true, threshold: 1024, encodings: ['br', 'gzip'] });
});
