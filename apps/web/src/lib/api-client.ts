import { STORE_ID } from '@tunes/shared/constants';
import type { ErrorBody } from '@tunes/shared/errors';
import {
  type AuthData,
  clearSession,
  GRANT_URL_KEY,
  readSession,
  tokenExpiry,
  writeSession,
} from './session';

/** A non-2xx answer of the API, with its status and the one error body (api.md). */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly body: Partial<ErrorBody> & Record<string, unknown>,
  ) {
    super(body.message ?? body.error_description ?? `Request failed with status ${status}`);
    this.name = 'ApiError';
  }
  /** The API's error code: `error` of the body (e.g. "604" for grant errors). */
  get code(): string | undefined {
    return typeof this.body.error === 'string' ? this.body.error : undefined;
  }
}

export interface RequestOptions {
  method?: 'GET' | 'POST' | 'PATCH' | 'PUT' | 'DELETE';
  query?: Record<string, string | number | boolean | undefined>;
  json?: unknown;
  form?: Record<string, string>;
  /** Send the user's access token, refreshing it first when it has expired. */
  auth?: boolean;
  /** Extra headers (e.g. the HMAC `Authorization` of silent login). */
  headers?: Record<string, string>;
  signal?: AbortSignal;
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

async function send(path: string, options: RequestOptions, accessToken?: string): Promise<Response> {
  const headers: Record<string, string> = {
    StoreId: STORE_ID,
    Accept: 'application/json',
    ...options.headers,
  };
  let body: BodyInit | undefined;
  if (options.form) {
    headers['Content-Type'] = 'application/x-www-form-urlencoded';
    body = new URLSearchParams(options.form).toString();
  } else if (options.json !== undefined) {
    headers['Content-Type'] = 'application/json';
    body = JSON.stringify(options.json);
  }
  if (accessToken) headers.Authorization = `Bearer ${accessToken}`;
  return transport.fetch(buildUrl(path, options.query), {
    method: options.method ?? 'GET',
    headers,
    body,
    signal: options.signal,
    credentials: 'same-origin',
  });
}

async function parse<T>(response: Response): Promise<T> {
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
    throw new ApiError(response.status, (data ?? { error: String(response.status) }) as ErrorBody);
  }
  return data as T;
}

/** The token endpoint's address, fetched once and kept in localStorage (product.md §7). */
export async function getGrantUrl(): Promise<string> {
  const stored = localStorage.getItem(GRANT_URL_KEY);
  if (stored) return stored;
  const { grantURL } = await parse<{ grantURL: string }>(await send('/api/application/grantUrl', {}));
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
export async function requestToken(form: Record<string, string>): Promise<TokenResponse> {
  return parse<TokenResponse>(await send(await getGrantUrl(), { method: 'POST', form }));
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
      if (error instanceof ApiError && error.status < 500) clearSession();
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

/**
 * The one way the site calls the API: adds the store id, the access token (refreshed before the
 * call when it has expired, and once more if the server still says 401), and turns failures into
 * ApiError.
 */
export async function apiRequest<T>(path: string, options: RequestOptions = {}): Promise<T> {
  if (!options.auth) return parse<T>(await send(path, options));
  const session = await freshSession();
  if (!session) throw new ApiError(401, { error: 'unauthorized', message: 'Not signed in.' });
  const response = await send(path, options, session.access_token);
  if (response.status !== 401) return parse<T>(response);
  const renewed = await freshSession(true);
  if (!renewed) throw new ApiError(401, { error: 'unauthorized', message: 'Not signed in.' });
  return parse<T>(await send(path, options, renewed.access_token));
}
