import { SESSION_COOKIE_MAX_AGE_SECONDS } from '@tunes/shared/constants';

/**
 * The session of product.md §3/§4: tokens and ids in the `authData` cookie, written with a one-hour
 * expiry. Never a password: the password is sent once to the token endpoint and forgotten.
 */
export interface AuthData {
  sub: string;
  access_token: string;
  refresh_token: string;
  username?: string;
  phone?: { number: string; countryCode: number };
  country?: string;
}

const COOKIE_NAME = 'authData';
export const GRANT_URL_KEY = 'grantURL';
export const SHARED_CODE_KEY = 'sharedCode';

const listeners = new Set<() => void>();
let cachedRaw: string | undefined;
let cached: AuthData | null = null;

function readCookie(): string | undefined {
  // Rendered on the server (entry-server.tsx), a page is seen as a visitor sees it.
  if (typeof document === 'undefined') return undefined;
  const prefix = `${COOKIE_NAME}=`;
  return document.cookie
    .split('; ')
    .find((part) => part.startsWith(prefix))
    ?.slice(prefix.length);
}

function isAuthData(value: unknown): value is AuthData {
  const data = value as Partial<AuthData> | null;
  return (
    typeof data?.sub === 'string' &&
    typeof data.access_token === 'string' &&
    typeof data.refresh_token === 'string'
  );
}

export function readSession(): AuthData | null {
  const raw = readCookie();
  if (raw === cachedRaw) return cached;
  cachedRaw = raw;
  try {
    const parsed: unknown = raw ? JSON.parse(decodeURIComponent(raw)) : null;
    cached = isAuthData(parsed) ? parsed : null;
  } catch {
    cached = null;
  }
  return cached;
}

function notify() {
  for (const listener of listeners) listener();
}

export function writeSession(data: AuthData): void {
  const { sub, access_token, refresh_token, username, phone, country } = data;
  const value = encodeURIComponent(
    JSON.stringify({ sub, access_token, refresh_token, username, phone, country }),
  );
  const secure = location.protocol === 'https:' ? '; Secure' : '';
  // biome-ignore lint/suspicious/noDocumentCookie: the spec keeps the session in this cookie; Cookie Store API is not in every browser.
  document.cookie = `${COOKIE_NAME}=${value}; Max-Age=${SESSION_COOKIE_MAX_AGE_SECONDS}; Path=/; SameSite=Lax${secure}`;
  notify();
}

export function clearSession(): void {
  // biome-ignore lint/suspicious/noDocumentCookie: see writeSession.
  document.cookie = `${COOKIE_NAME}=; Max-Age=0; Path=/; SameSite=Lax`;
  notify();
}

export function subscribeToSession(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

/** Seconds since the epoch at which a JWT expires, or 0 when it cannot be read. */
export function tokenExpiry(token: string): number {
  try {
    const payload = token.split('.')[1] ?? '';
    const json = atob(payload.replace(/-/g, '+').replace(/_/g, '/'));
    const exp = (JSON.parse(json) as { exp?: unknown }).exp;
    return typeof exp === 'number' ? exp : 0;
  } catch {
    return 0;
  }
}
