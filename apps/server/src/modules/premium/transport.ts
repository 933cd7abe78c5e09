import { context, propagation } from '@opentelemetry/api';
import type { FastifyInstance } from 'fastify';
import { inChildSpan, SpanKind } from '../../lib/spans.js';

/** How the server calls another HTTP service: a JSON POST answering status and parsed body. */
export type JsonPost = (url: string, body: unknown, headers?: Record<string, string>) => Promise<JsonAnswer>;

export interface JsonAnswer {
  status: number;
  body: unknown;
}

/** Any JSON call (QPay and the PosAPI read with GET and cancel with DELETE). */
export interface JsonRequest {
  method: 'GET' | 'POST' | 'DELETE';
  url: string;
  headers?: Record<string, string>;
  /** Sent as JSON; none for a GET. */
  body?: unknown;
}
export type JsonCall = (request: JsonRequest) => Promise<JsonAnswer>;

const TIMEOUT_MS = 10_000;

function parseBody(text: string): unknown {
  try {
    return text ? JSON.parse(text) : null;
  } catch {
    return { raw: text.slice(0, 500) };
  }
}

const jsonHeaders = (request: JsonRequest): Record<string, string> => ({
  ...(request.body === undefined ? {} : { 'content-type': 'application/json' }),
  accept: 'application/json',
  ...request.headers,
});

/** Over the network, with a timeout. */
export const fetchJson: JsonCall = async (request) => {
  const response = await fetch(request.url, {
    method: request.method,
    headers: jsonHeaders(request),
    ...(request.body === undefined ? {} : { body: JSON.stringify(request.body) }),
    signal: AbortSignal.timeout(TIMEOUT_MS),
  });
  return { status: response.status, body: parseBody(await response.text()) };
};

export const fetchJsonPost: JsonPost = (url, body, headers = {}) =>
  fetchJson({ method: 'POST', url, body, headers });

/**
 * Calls to this server's own origin (the built-in sandbox gateway and its callbacks) go through
 * `app.inject`: the same HTTP handling without a network hop, so they work behind a proxy, in
 * tests, and whatever address the process listens on. Everything else goes over the network.
 */
export function jsonCallFor(app: FastifyInstance, ownOrigin: string): JsonCall {
  const call: JsonCall = async (request) => {
    const target = new URL(request.url);
    if (target.origin !== new URL(ownOrigin).origin) return fetchJson(request);
    const response = await app.inject({
      method: request.method,
      url: target.pathname + target.search,
      headers: jsonHeaders(request),
      ...(request.body === undefined ? {} : { payload: JSON.stringify(request.body) }),
    });
    return { status: response.statusCode, body: parseBody(response.body) };
  };
  return (request) => inProviderSpan(request, call);
}

/**
 * A provider call inside a traced request is a client span of its own (`POST merchant.qpay.mn`,
 * with the path but never the query), and carries the trace on to the provider in `traceparent`.
 */
function inProviderSpan(request: JsonRequest, call: JsonCall): Promise<JsonAnswer> {
  const target = new URL(request.url);
  return inChildSpan(
    {
      name: `${request.method} ${target.host}`,
      kind: SpanKind.CLIENT,
      attributes: {
        'http.request.method': request.method,
        'server.address': target.hostname,
        'url.full': `${target.origin}${target.pathname}`,
      },
      resultAttributes: (answer) => ({ 'http.response.status_code': answer.status }),
    },
    () => {
      const headers: Record<string, string> = { ...request.headers };
      propagation.inject(context.active(), headers);
      return call({ ...request, headers });
    },
  );
}

export function jsonPostFor(app: FastifyInstance, ownOrigin: string): JsonPost {
  const call = jsonCallFor(app, ownOrigin);
  return (url, body, headers = {}) => call({ method: 'POST', url, body, headers });
}
