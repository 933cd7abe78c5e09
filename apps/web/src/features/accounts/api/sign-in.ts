import type { LoginInfo } from '@tunes/shared/accounts';
import { apiRequest, requestToken, type TokenResponse } from '@/lib/api-client';
import type { CallErrors } from '@/lib/api-error';
import { type AuthData, writeSession } from '@/lib/session';

function subjectOf(accessToken: string): string {
  const payload = accessToken.split('.')[1] ?? '';
  const json = atob(payload.replace(/-/g, '+').replace(/_/g, '/'));
  return (JSON.parse(json) as { sub: string }).sub;
}

/** Grant of product.md §7: `grant_type=msisdn` with the number and its code. */
export function grantByMsisdn(msisdn: string, code: string, errors: CallErrors): Promise<TokenResponse> {
  return requestToken({ grant_type: 'msisdn', msisdn, code, skip_decryption: 'true' }, errors);
}

/**
 * Grant of product.md §7: `grant_type=password` with username and password. product.md §8: a failure reads
 * 'Login failed. Please check your details…' and toasts 'Login failed'.
 */
export function grantByPassword(username: string, password: string): Promise<TokenResponse> {
  return requestToken(
    { grant_type: 'password', username, password, skip_decryption: 'true' },
    {
      messages: { 429: 'accounts:messages.too-many-attempts', other: 'accounts:messages.email-login-failed' },
      // The hold-back (429) is told once, in the form; a failed login also toasts (product.md §8).
      toast: { 429: false, other: 'accounts:toast.login-failed' },
    },
  );
}

/**
 * Stores the session of product.md §3 (tokens and ids only, never the password) and fills username
 * and phone from the user's login info, read with the user's own token.
 */
export async function storeSession(
  tokens: Pick<TokenResponse, 'access_token' | 'refresh_token'>,
  extra: Partial<AuthData> = {},
) {
  const sub = subjectOf(tokens.access_token);
  const session: AuthData = {
    sub,
    access_token: tokens.access_token,
    refresh_token: tokens.refresh_token,
    ...extra,
  };
  writeSession(session);
  try {
    const logins = await apiRequest<LoginInfo[]>('/api/users/getlogins', { query: { id: sub }, auth: true });
    for (const login of logins) {
      if (login.Type === 'Email' || login.Type === 'Username') session.username ??= login.Value;
      if (login.Type === 'Msisdn' && !session.phone) {
        const countryCode = login.Value.startsWith('976') ? 976 : undefined;
        if (countryCode) session.phone = { number: login.Value.slice(3), countryCode };
      }
    }
    writeSession(session);
  } catch (error) {
    // Login info only completes the session (product.md §8: failures are logged only).
    console.error('getlogins failed', error);
  }
  return session;
}

/** E-mail sign-in: the password grant, then the session (never the password) is stored. */
export async function signInWithPassword(email: string, password: string, extra: Partial<AuthData> = {}) {
  const tokens = await grantByPassword(email, password);
  return storeSession(tokens, { username: email, ...extra });
}

/** product.md §4: after a successful sign-in go to /profile and reload. */
export function goToProfile(): void {
  window.location.assign('/profile');
}
