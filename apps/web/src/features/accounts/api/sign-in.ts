import type { LoginInfo } from '@tunes/shared/accounts';
import { apiRequest, requestToken, type TokenResponse } from '@/lib/api-client';
import { type AuthData, writeSession } from '@/lib/session';

function subjectOf(accessToken: string): string {
  const payload = accessToken.split('.')[1] ?? '';
  const json = atob(payload.replace(/-/g, '+').replace(/_/g, '/'));
  return (JSON.parse(json) as { sub: string }).sub;
}

/** Grant of product.md §7: `grant_type=msisdn` with the number and its code. */
export function grantByMsisdn(msisdn: string, code: string): Promise<TokenResponse> {
  return requestToken({ grant_type: 'msisdn', msisdn, code, skip_decryption: 'true' });
}

/** Grant of product.md §7: `grant_type=password` with username and password. */
export function grantByPassword(username: string, password: string): Promise<TokenResponse> {
  return requestToken({ grant_type: 'password', username, password, skip_decryption: 'true' });
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

/** product.md §4: after a successful sign-in go to /profile and reload. */
export function goToProfile(): void {
  window.location.assign('/profile');
}
