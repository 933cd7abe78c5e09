import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { totpCode } from '../../src/modules/console/totp.js';
import { consoleHeaders, OPERATOR_PASSWORD, signedInOperator } from '../helpers/console.js';
import { createTestApp, type TestApp } from '../helpers/test-app.js';

/**
 * Console sign-in tries (security.md): failures count per account and client address together
 * (5 per 15 minutes), so a stranger cannot lock an operator out, and per account from every
 * address (20 an hour), so a guesser with many addresses is still capped. On the database's
 * throttle, and on Redis's when REDIS_URL is set (CI sets it).
 */
const throttles: [string, Record<string, string>][] = [
  ['the database', {}],
  ...(process.env.REDIS_URL
    ? [['Redis', { REDIS_URL: process.env.REDIS_URL }] as [string, Record<string, string>]]
    : []),
];
let t: TestApp;

const MINUTE = 60_000;
const STRANGER = '198.51.100.7';
const OFFICE = '203.0.113.20';

function signInFrom(remoteAddress: string, body: { email: string; password: string; code: string }) {
  return t.app.inject({
    method: 'POST',
    url: '/api/admin/session',
    headers: consoleHeaders(),
    payload: body,
    remoteAddress,
  });
}

const statusCounts = (answers: { statusCode: number }[]) =>
  answers.reduce<Record<number, number>>((counts, { statusCode }) => {
    counts[statusCode] = (counts[statusCode] ?? 0) + 1;
    return counts;
  }, {});

describe.each(throttles)('console sign-in tries on %s', (_name, env) => {
  beforeAll(async () => {
    t = await createTestApp(env);
  });
  afterAll(async () => {
    await t.close();
  });

  it("a stranger's 50 wrong passwords at once from one address do not lock the operator out elsewhere", async () => {
    const { email, secret } = await signedInOperator(t, 'admin');
    t.clock.advance(MINUTE);
    const guesses = await Promise.all(
      Array.from({ length: 50 }, () =>
        signInFrom(STRANGER, { email, password: 'guess-password-1', code: '123456' }),
      ),
    );
    expect(statusCounts(guesses)).toEqual({ 401: 5, 429: 45 });
    expect(guesses.find((answer) => answer.statusCode === 429)?.headers['retry-after']).toBeDefined();

    const right = { email, password: OPERATOR_PASSWORD, code: await totpCode(secret, t.clock.now()) };
    // The stranger's address stays closed, even with the right password…
    expect((await signInFrom(STRANGER, right)).statusCode).toBe(429);
    // …while the operator signs in from their own.
    const operator = await signInFrom(OFFICE, right);
    expect(operator.statusCode, operator.body).toBe(200);
  });

  it('caps guesses for one account at 20 an hour across many addresses, then refuses everyone', async () => {
    const { email, secret } = await signedInOperator(t, 'support');
    t.clock.advance(MINUTE);
    const guesses = await Promise.all(
      Array.from({ length: 60 }, (_, i) =>
        signInFrom(`192.0.2.${i + 1}`, { email, password: `guess-password-${i}`, code: '123456' }),
      ),
    );
    expect(statusCounts(guesses)).toEqual({ 401: 20, 429: 40 });

    const right = { email, password: OPERATOR_PASSWORD, code: await totpCode(secret, t.clock.now()) };
    expect((await signInFrom(OFFICE, right)).statusCode).toBe(429);
    t.clock.advance(61 * MINUTE);
    const later = { ...right, code: await totpCode(secret, t.clock.now()) };
    expect((await signInFrom(OFFICE, later)).statusCode).toBe(200);
  });
});
