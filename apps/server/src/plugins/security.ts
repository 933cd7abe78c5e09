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

/** The security headers every answer carries (CSP, HSTS in production, …), built once. */
export function securityHeadersFor(isProduction: boolean): Record<string, string> {
  return headersSetBy(
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
      hsts: isProduction ? { maxAge: 31_536_000, includeSubDomains: true } : false,
      crossOriginEmbedderPolicy: false,
    }),
  );
}

/** Security headers, the request id, and response compression on every routed answer. */
export const security = fp(async (app: FastifyInstance, { headers }: { headers: Record<string, string> }) => {
  // Helmet's headers do not vary by request (no nonces), so its middleware runs once and the
  // headers it sets are copied onto every answer: @fastify/helmet rebuilt the policy on every
  // request, and even a prebuilt middleware spent ~6 % of a cached answer's CPU (`npm run bench`).
  app.addHook('onRequest', (request, reply, done) => {
    reply.headers(headers);
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
