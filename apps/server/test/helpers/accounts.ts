import { randomMsisdn } from './factories.js';
import type { TestApp } from './test-app.js';

export const STORE = { StoreId: 'MNCO' };

/** The newest message the outbox holds for a number or address, read through /dev/outbox. */
export async function lastMessage(t: TestApp, to: string) {
  const response = await t.app.inject({ method: 'GET', url: '/dev/outbox', query: { to } });
  const [message] = response.json() as { code: string | null; link: string | null; text: string }[];
  if (!message) throw new Error(`no message was sent to ${to}`);
  return message;
}

export function requestOtp(t: TestApp, query: Record<string, string>) {
  return t.app.inject({ method: 'GET', url: '/api/users/requestotp', headers: STORE, query });
}

export function grant(t: TestApp, form: Record<string, string>) {
  return t.app.inject({
    method: 'POST',
    url: '/api/oauth2/token',
    headers: { ...STORE, 'content-type': 'application/x-www-form-urlencoded' },
    payload: new URLSearchParams(form).toString(),
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
