import { randomMsisdn, STORE } from './factories.js';
import type { TestApp } from './test-app.js';

// The accounts API as the site calls it: codes, grants and a signed-in mobile user. A client
// address may be given where a suite counts per address (security.md); loopback otherwise.

/** The newest message the outbox holds for a number or address, read through /dev/outbox. */
export async function lastMessage(t: TestApp, to: string) {
  const response = await t.app.inject({ method: 'GET', url: '/dev/outbox', query: { to } });
  const [message] = response.json() as { code: string | null; link: string | null; text: string }[];
  if (!message) throw new Error(`no message was sent to ${to}`);
  return message;
}

export function requestOtp(t: TestApp, query: Record<string, string>, remoteAddress?: string) {
  return t.app.inject({ method: 'GET', url: '/api/users/requestotp', headers: STORE, query, remoteAddress });
}

export function validateOtp(t: TestApp, query: Record<string, string>, remoteAddress?: string) {
  return t.app.inject({ method: 'GET', url: '/api/users/validateotp', headers: STORE, query, remoteAddress });
}

export function grant(t: TestApp, form: Record<string, string>, remoteAddress?: string) {
  return t.app.inject({
    method: 'POST',
    url: '/api/oauth2/token',
    headers: { ...STORE, 'content-type': 'application/x-www-form-urlencoded' },
    payload: new URLSearchParams(form).toString(),
    remoteAddress,
  });
}

/** Signs a fresh mobile user in through the real API, the way the site does (product.md §4). */
export async function signUpByMobile(t: TestApp, msisdn = randomMsisdn()) {
  await requestOtp(t, { msisdn, language: 'en' });
  const { code } = await lastMessage(t, msisdn);
  const form = { grant_type: 'msisdn', msisdn, code: code ?? '' };
  let answer = await grant(t, form);
  if (answer.statusCode === 400 && answer.json().error === '604') {
    await t.app.inject({
      method: 'POST',
      url: '/api/users/registerbymsisdn',
      headers: STORE,
      payload: { PhoneNumber: msisdn.slice(3), CountryCode: 976, Token: code },
    });
    answer = await grant(t, form);
  }
  const tokens = answer.json() as { access_token: string; refresh_token: string };
  const sub = JSON.parse(Buffer.from(tokens.access_token.split('.')[1] ?? '', 'base64url').toString())
    .sub as string;
  return { sub, msisdn, ...tokens };
}
