import type { FastifyInstance } from 'fastify';

/** How the server calls another HTTP service: a JSON POST answering status and parsed body. */
export type JsonPost = (url: string, body: unknown, headers?: Record<string, string>) => Promise<JsonAnswer>;

export interface JsonAnswer {
  status: number;
  body: unknown;
}

const TIMEOUT_MS = 10_000;

function parseBody(text: string): unknown {
  try {
    return text ? JSON.parse(text) : null;
  } catch {
    return { raw: text.slice(0, 500) };
  }
}

/** Over the network, with a timeout. */
export const fetchJsonPost: JsonPost = async (url, body, headers = {}) => {
  const response = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: 'application/json', ...headers },
    body: JSON.stringify(body),
    signal: AbortSignal.timeout(TIMEOUT_MS),
  });
  return { status: response.status, body: parseBody(await response.text()) };
};

/**
 * Calls to this server's own origin (the built-in sandbox gateway and its callbacks) go through
 * `app.inject`: the same HTTP handling without a network hop, so they work behind a proxy, in
 * tests, and whatever address the process listens on. Everything else goes over the network.
 */
export function jsonPostFor(app: FastifyInstance, ownOrigin: string): JsonPost {
  return async (url, body, headers = {}) => {
    const target = new URL(url);
    if (target.origin !== new URL(ownOrigin).origin) return fetchJsonPost(url, body, headers);
    const response = await app.inject({
      method: 'POST',
      url: target.pathname + target.search,
      headers: { 'content-type': 'application/json', accept: 'application/json', ...headers },
      payload: JSON.stringify(body),
    });
    return { status: response.statusCode, body: parseBody(response.body) };
  };
}
