import { STORE_ID } from '@tunes/shared/constants';
import { ERROR_CODES } from '@tunes/shared/error-codes';
import type { ErrorBody } from '@tunes/shared/errors';
import { apiFailure, type CallErrors, isApiError, NETWORK_ERROR } from './api-error';
import {
  type AuthData,
  clearSession,
  GRANT_URL_KEY,
  readSession,
  tokenExpiry,
  writeSession,
} from './session';

export interface RequestOptions {
  method?: 'GET' | 'POST' | 'PATCH' | 'PUT' | 'DELETE';
  query?: Record<string, string | number | boolean | undefined>;
  json?: unknown;
  form?: Record<string, string>;
  /** Send the user's access token, refreshing it first when it has expired. */
  auth?: boolean;
  /** Extra headers (e.g. the HMAC `Authorization` of silent login). */
  headers?: Record<string, string>;
  /** Raw bytes sent with their own type (an image upload). */
  file?: Blob;
  signal?: AbortSignal;
  /** The texts and toasts of this call's failures. */
  errors?: CallErrors;
}

/** Refresh this many seconds before the token's expiry to cover clock skew and latency. */
const EXPIRY_MARGIN_SECONDS = 30;

/**
 * Where calls go: the page's own origin in the browser. The server-side renderer
 * (`entry-server.tsx`) points it at the API inside its own process.
 */
const transport: { origin: () => string; fetch: typeof fetch } = {
  origin: () => location.origin,
  fetch: (input, init) => fetch(input, init),
};

export function setApiTransport(origin: string, fetchImpl: typeof fetch): void {
  transport.origin = () => origin;
  transport.fetch = fetchImpl;
}

function buildUrl(path: string, query?: RequestOptions['query']): string {
  const url = new URL(path, transport.origin());
  for (const [key, value] of Object.entries(query ?? {})) {
    if (value !== undefined) url.searchParams.set(key, String(value));
  }
  return url.pathname + url.search;
}

async function send(path: string, options: RequestOptions): Promise<Response> {
  const headers: Record<string, string> = {
    StoreId: STORE_ID,
    Accept: 'application/json',
    ...options.headers,
  };
  let body: BodyInit | undefined;
  if (options.file) {
    headers['Content-Type'] = options.file.type;
    body = options.file;
  } else if (options.form) {
    headers['Content-Type'] = 'application/x-www-form-urlencoded';
    body = new URLSearchParams(options.form).toString();
  } else if (options.json !== undefined) {
    headers['Content-Type'] = 'application/json';
    body = JSON.stringify(options.json);
  }
  try {
    return await transport.fetch(buildUrl(path, options.query), {
      method: options.method ?? 'GET',
      headers,
      body,
      signal: options.signal,
      credentials: 'same-origin',
    });
  } catch (error) {
    if (options.signal?.aborted) throw error;
    throw apiFailure(0, { error: NETWORK_ERROR, message: String(error) }, options.errors ?? {});
  }
}

function retryAfterOf(response: Response, data: Record<string, unknown>): number | undefined {
  const value = Number(data.retryAfter ?? response.headers.get('retry-after'));
  return Number.isFinite(value) && value > 0 ? value : undefined;
}

async function parse<T>(response: Response, errors: CallErrors = {}): Promise<T> {
  const text = await response.text();
  let data: unknown = null;
  if (text) {
    try {
      data = JSON.parse(text);
    } catch {
      data = { error: 'invalid_response', message: text.slice(0, 200) };
    }
  }
  if (!response.ok) {
    const body = (data ?? { error: String(response.status) }) as Partial<ErrorBody> & Record<string, unknown>;
    throw apiFailure(response.status, body, errors, retryAfterOf(response, body));
  }
  return data as T;
}

/** The token endpoint's address, fetched once and kept in localStorage (product.md §7). */
export async function getGrantUrl(errors?: CallErrors): Promise<string> {
  const stored = localStorage.getItem(GRANT_URL_KEY);
  if (stored) return stored;
  const options = { errors };
  const { grantURL } = await parse<{ grantURL: string }>(
    await send('/api/application/grantUrl', options),
    errors,
  );
  localStorage.setItem(GRANT_URL_KEY, grantURL);
  return grantURL;
}

export interface TokenResponse {
  access_token: string;
  refresh_token: string;
  token_type: string;
  expires_in: number;
}

/** Posts a form-encoded grant to the token endpoint. */
export async function requestToken(
  form: Record<string, string>,
  errors?: CallErrors,
): Promise<TokenResponse> {
  const options: RequestOptions = { method: 'POST', form, errors };
  return parse<TokenResponse>(await send(await getGrantUrl(errors), options), errors);
}

let refreshing: Promise<AuthData | null> | null = null;

async function refreshSession(stale: AuthData): Promise<AuthData | null> {
  const run = async () => {
    // Another tab may have refreshed while we waited for the lock: use its tokens.
    const current = readSession();
    if (!current || current.sub !== stale.sub) return current;
    if (current.access_token !== stale.access_token) return current;
    try {
      const tokens = await requestToken({
        grant_type: 'refresh_token',
        refresh_token: current.refresh_token,
      });
      const next = { ...current, access_token: tokens.access_token, refresh_token: tokens.refresh_token };
      writeSession(next);
      return next;
    } catch (error) {
      if (isApiError(error) && error.status >= 400 && error.status < 500) clearSession();
      throw error;
    }
  };
  // One refresh at a time, across calls of this tab and across tabs (a reused refresh token
  // would revoke the whole session).
  return navigator.locks ? navigator.locks.request('tunes-token-refresh', run) : run();
}

/** The session with an access token that is still valid, refreshing it once if needed. */
export async function freshSession(force = false): Promise<AuthData | null> {
  const session = readSession();
  if (!session) return null;
  const expired = tokenExpiry(session.access_token) - EXPIRY_MARGIN_SECONDS <= Date.now() / 1000;
  if (!expired && !force) return session;
  refreshing ??= refreshSession(session).finally(() => {
    refreshing = null;
  });
  return refreshing;
}

/** The session for an authenticated call; failing to get one fails the call, in its texts. */
async function sessionFor(errors: CallErrors, force = false): Promise<AuthData> {
  let session: AuthData | null;
  try {
    session = await freshSession(force);
  } catch (error) {
    if (isApiError(error) && error.status === 0) throw apiFailure(0, error.body, errors);
    session = null;
  }
  if (!session) throw apiFailure(401, { error: ERROR_CODES.unauthorized, message: 'Not signed in.' }, errors);
  return session;
}

/**
 * How a family of calls says who is asking (decision 0040): the listener's bearer token (below)
 * or the operator console's cookie session (`admin/api.ts`). The core sends, parses and turns
 * failures into ApiErrors; a strategy only adds its headers and answers to the response.
 */
export interface SessionStrategy {
  /** Sends the call (`send` may be called again, e.g. after a refresh) and answers its response. */
  call(send: (headers?: Record<string, string>) => Promise<Response>, errors: CallErrors): Promise<Response>;
}

/** The listener's session: the access token, refreshed before the call when it has expired and
 * once more if the server still says 401; a session the server keeps refusing ends here. */
const bearerSession: SessionStrategy = {
  async call(sendWith, errors) {
    const session = await sessionFor(errors);
    const response = await sendWith({ Authorization: `Bearer ${session.access_token}` });
    if (response.status !== 401) return response;
    const renewed = await sessionFor(errors, true);
    const retried = await sendWith({ Authorization: `Bearer ${renewed.access_token}` });
    if (retried.status === 401) clearSession();
    return retried;
  },
};

/** A call with a session strategy: the core's transport, body and failures, the strategy's session. */
export async function apiRequestWith<T>(
  strategy: SessionStrategy,
  path: string,
  options: RequestOptions = {},
): Promise<T> {
  const errors = options.errors ?? {};
  const response = await strategy.call(
    (headers) => send(path, headers ? { ...options, headers: { ...options.headers, ...headers } } : options),
    errors,
  );
  return parse<T>(response, errors);
}

/**
 * The one way the site calls the API: adds the store id and, with `auth`, the listener's
 * session (`bearerSession`), and turns every failure into an ApiError whose message is the
 * translated text the user reads, toasting it when the call asks to (`errors`).
 */
export async function apiRequest<T>(path: string, options: RequestOptions = {}): Promise<T> {
  if (options.auth) return apiRequestWith<T>(bearerSession, path, options);
  return parse<T>(await send(path, options), options.errors ?? {});
}
