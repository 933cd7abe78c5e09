import { randomUUID } from 'node:crypto';
import {
  createServer,
  type IncomingHttpHeaders,
  type IncomingMessage,
  type ServerOptions,
  type ServerResponse,
} from 'node:http';
import { performance } from 'node:perf_hooks';
import type { FastifyServerFactory } from 'fastify';
import { type CachedAnswer, representationFor } from './answer-cache.js';
import type { OneLinePerRequest } from './logging.js';
import type { RequestMetrics } from './metrics.js';

/** A caller's `X-Request-Id` when it is a plain token of 8–64 characters, else a new UUID. */
export function requestIdOf(headers: IncomingHttpHeaders): string {
  const incoming = headers['x-request-id'];
  return typeof incoming === 'string' && /^[\w-]{8,64}$/.test(incoming) ? incoming : randomUUID();
}

/** What Fastify hands its server factory, its defaults filled in (fastify.js, lib/server.js). */
interface ServerSettings {
  http?: ServerOptions;
  keepAliveTimeout: number;
  requestTimeout: number;
  connectionTimeout: number;
  maxRequestsPerSocket: number;
}

/** The answer a route keeps in memory for a query string, or undefined to let the route answer. */
export type StoredAnswerLookup = (query: string) => CachedAnswer | undefined;

/**
 * Public answers the same for every visitor (the landing data, the card list, a merchant's
 * plans), answered from memory before Fastify's routing (decision 0026).
 *
 * Each route adds its path with a lookup that knows which query strings it takes, exactly (any
 * other goes to the route, whose schema answers it) and whether its answer is in memory and
 * current (`AnswerCache.peek`); when not, the route answers and fills the cache. What an answer
 * carries is what the route's would: the API's security headers, the request id, the cached
 * answer's own headers (`representationFor`, shared with `sendCachedAnswer`); and it is counted
 * and logged like a routed one. Only GET is served here; once the app begins to close, every
 * request goes to Fastify, which refuses new work.
 */
export class StoredAnswers {
  readonly #byPath = new Map<string, StoredAnswerLookup>();
  readonly #securityHeaders: readonly string[];
  #open = true;
  /** How many answers went out from here (a test reads it). */
  served = 0;

  constructor(
    securityHeaders: Readonly<Record<string, string>>,
    private readonly metrics: RequestMetrics,
    private readonly log: OneLinePerRequest,
  ) {
    this.#securityHeaders = Object.entries(securityHeaders).flat();
  }

  /** Serves GET `path` (the route's pattern, as metrics name it) from `lookup` when it can. */
  add(path: string, lookup: StoredAnswerLookup): void {
    this.#byPath.set(path, lookup);
  }

  /** From now on every request goes to the router (the app is closing). */
  close(): void {
    this.#open = false;
  }

  /** node:http's server as Fastify makes it, with these answers in front of the router. */
  serverFactory(): FastifyServerFactory {
    return (router, options) => {
      const settings = options as unknown as ServerSettings;
      const server = createServer(settings.http ?? {}, (request, response) => {
        if (!this.serve(request, response)) router(request, response);
      });
      server.keepAliveTimeout = settings.keepAliveTimeout;
      server.requestTimeout = settings.requestTimeout;
      server.setTimeout(settings.connectionTimeout);
      if (settings.maxRequestsPerSocket > 0) server.maxRequestsPerSocket = settings.maxRequestsPerSocket;
      return server;
    };
  }

  /** Answers `request` from memory and says so, or returns false for the router to take it. */
  serve(request: IncomingMessage, response: ServerResponse): boolean {
    if (request.method !== 'GET' || !this.#open) return false;
    const url = request.url ?? '';
    const mark = url.indexOf('?');
    const path = mark < 0 ? url : url.slice(0, mark);
    const answer = this.#byPath.get(path)?.(mark < 0 ? '' : url.slice(mark + 1));
    if (!answer) return false;

    const started = performance.now();
    const { headers } = request;
    const chosen = representationFor(answer, headers['if-none-match'], headers['accept-encoding']);
    const id = requestIdOf(headers);
    response.writeHead(chosen.status, [...this.#securityHeaders, ...chosen.headerList, 'x-request-id', id]);
    if (chosen.wire === undefined) response.end();
    else response.end(chosen.wire, 'latin1');
    this.served++;
    const ms = performance.now() - started;
    this.metrics.record('GET', path, chosen.status, ms / 1000);
    this.log.answered(id, 'GET', url, chosen.status, ms);
    return true;
  }
}
