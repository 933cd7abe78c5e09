import { randomBytes } from 'node:crypto';
import type { OperatorRole } from '@tunes/shared/console';
import { expect } from 'vitest';
import { totpCode } from '../../src/modules/console/totp.js';
import type { TestApp } from './test-app.js';

/** The operator console's calls as the web console makes them (docs/console-api.md). */

const BASE32 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ234567';
export const OPERATOR_PASSWORD = 'operator-password-1';

export function randomTotpSecret(): string {
  return Array.from(randomBytes(32), (byte) => BASE32[byte % 32]).join('');
}

/** The console's headers for a session cookie (and the CSRF header every change needs). */
export const consoleHeaders = (cookie?: string) => ({
  'x-tunes-console': '1',
  ...(cookie ? { cookie } : {}),
});

/** The `tunes_op=…` pair of a Set-Cookie header. */
export function sessionCookie(setCookie: string | string[] | undefined): string {
  const header = [setCookie ?? []].flat()[0] ?? '';
  const pair = header.split(';')[0] ?? '';
  expect(pair).toMatch(/^tunes_op=.{20,}/);
  return pair;
}

export function signInCall(t: TestApp, body: { email: string; password: string; code: string }) {
  return t.app.inject({
    method: 'POST',
    url: '/api/admin/session',
    headers: consoleHeaders(),
    payload: body,
  });
}

/** A ready operator of `role` (through the dev route), signed in; answers its cookie. */
export async function signedInOperator(t: TestApp, role: OperatorRole) {
  const email = `${role}-${randomBytes(4).toString('hex')}@ops.example.mn`;
  const secret = randomTotpSecret();
  const made = await t.app.inject({
    method: 'POST',
    url: '/dev/admin/operators',
    payload: { email, role, password: OPERATOR_PASSWORD, totpSecret: secret },
  });
  expect(made.statusCode, made.body).toBe(201);
  const answer = await signInCall(t, {
    email,
    password: OPERATOR_PASSWORD,
    code: await totpCode(secret, t.clock.now()),
  });
  expect(answer.statusCode, answer.body).toBe(200);
  const operator = (answer.json() as { operator: { id: string } }).operator;
  return { email, secret, id: operator.id, cookie: sessionCookie(answer.headers['set-cookie']) };
}

/** A console call with the operator's cookie. */
export function consoleCall(
  t: TestApp,
  cookie: string,
  method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE',
  url: string,
  payload?: unknown,
) {
  return t.app.inject({
    method,
    url,
    headers: consoleHeaders(cookie),
    ...(payload === undefined ? {} : { payload: payload as object }),
  });
}

/** The audit entries of an action (newest first), read through the API as an admin. */
export async function auditEntries(t: TestApp, adminCookie: string, action: string) {
  const answer = await consoleCall(t, adminCookie, 'GET', '/api/admin/audit?limit=100');
  expect(answer.statusCode, answer.body).toBe(200);
  const { entries } = answer.json() as {
    entries: {
      action: string;
      targetId: string | null;
      before: unknown;
      after: unknown;
      operator: { email: string };
    }[];
  };
  return entries.filter((entry) => entry.action === action);
}

/** An admin's refund of a payment (all that is left unless `amount` is given). */
export function refundCall(
  t: TestApp,
  cookie: string,
  invoiceId: string,
  body: { reason?: string; amount?: number } = {},
) {
  return consoleCall(t, cookie, 'POST', `/api/admin/payments/${encodeURIComponent(invoiceId)}/refund`, {
    reason: 'Asked by the listener',
    ...body,
  });
}
