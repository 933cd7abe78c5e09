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

/** What answers this server's own origin in process: the app, once built (`app.inject`). */
export type InProcessServer = Pick<FastifyInstance, 'inject'>;

/**
 * How the server calls other HTTP services (the providers) as JSON, one per process, made by
 * `createDeps`. Calls to this server's own origin (the built-in sandboxes, a sandbox's callback)
 * are answered by the app in process (`app.inject`): the same HTTP handling without a network
 * hop, so they work behind a proxy, in tests, and whatever address the process listens on. Until
 * an app serves the deps (`Deps.servedBy`), or with none (an admin command), they go over the
 * network like everything else.
 */
export class JsonTransport {
  readonly #ownOrigin: string;
  readonly #inProcess: () => InProcessServer | undefined;

  constructor(ownOrigin: string, inProcess: () => InProcessServer | undefined = () => undefined) {
    this.#ownOrigin = new URL(ownOrigin).origin;
    this.#inProcess = inProcess;
  }

  readonly call: JsonCall = (request) => inProviderSpan(request, (traced) => this.#send(traced));

  readonly post: JsonPost = (url, body, headers = {}) => this.call({ method: 'POST', url, body, headers });

  async #send(request: JsonRequest): Promise<JsonAnswer> {
    const target = new URL(request.url);
    const server = this.#inProcess();
    if (!server || target.origin !== this.#ownOrigin) return fetchJson(request);
    const response = await server.inject({
      method: request.method,
      url: target.pathname + target.search,
      headers: jsonHeaders(request),
      ...(request.body === undefined ? {} : { payload: JSON.stringify(request.body) }),
    });
    return { status: response.statusCode, body: parseBody(response.body) };
  }
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
