import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { grant, lastMessage, requestOtp, signUpByMobile } from '../helpers/accounts.js';
import { bearer } from '../helpers/factories.js';
import { createTestApp, type TestApp } from '../helpers/test-app.js';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => {
  await t.close();
});

/** A fresh code to the number (past the resend wait of the sign-in's code). */
async function freshCode(msisdn: string): Promise<string> {
  await t.app.inject({ method: 'POST', url: '/dev/clock', payload: { advanceSeconds: 31 } });
  const sent = await requestOtp(t, { msisdn, language: 'en' });
  expect(sent.statusCode, sent.body).toBe(200);
  return (await lastMessage(t, msisdn)).code ?? '';
}

const setPassword = (accessToken: string, body: object) =>
  t.app.inject({
    method: 'POST',
    url: '/api/users/me/password/set',
    headers: bearer(accessToken),
    payload: body,
  });

describe('a first password on a phone account', () => {
  it('with a fresh code: set once, then the number and the password sign in, and the holder is told', async () => {
    const user = await signUpByMobile(t);
    const code = await freshCode(user.msisdn);
    const set = await setPassword(user.access_token, { Otp: code, NewPassword: 'secret-1' });
    expect(set.statusCode, set.body).toBe(200);
    const outbox = await t.app.inject({ method: 'GET', url: '/dev/outbox', query: { to: user.msisdn } });
    const texts = (outbox.json() as { text: string }[]).map((message) => message.text);
    expect(texts.filter((text) => text.startsWith('A password was set on your Tunes account'))).toHaveLength(
      1,
    );
    const signedIn = await grant(t, { grant_type: 'password', username: user.msisdn, password: 'secret-1' });
    expect(signedIn.statusCode, signedIn.body).toBe(200);
    const profile = await t.app.inject({
      method: 'GET',
      url: `/api/users/${user.sub}/profile`,
      headers: bearer(user.access_token),
    });
    expect(profile.json()).toMatchObject({ HasPassword: true });

    // The same again: the account has one now; it changes only with the current one.
    const again = await setPassword(user.access_token, {
      Otp: await freshCode(user.msisdn),
      NewPassword: 'other-22',
    });
    expect(again.statusCode).toBe(409);
    expect(again.json()).toMatchObject({ error: 'password_exists' });
  });

  it('refuses a wrong code, a short password and a visitor, and changes nothing', async () => {
    const user = await signUpByMobile(t);
    const code = await freshCode(user.msisdn);
    const wrong = await setPassword(user.access_token, {
      Otp: code === '0000' ? '1111' : '0000',
      NewPassword: 'secret-1',
    });
    expect(wrong.statusCode).toBe(400);
    expect(wrong.json()).toMatchObject({ error: 'invalid_code' });
    const short = await setPassword(user.access_token, { Otp: code, NewPassword: '12345' });
    expect(short.statusCode).toBe(400);
    expect(short.json()).toMatchObject({ field: 'NewPassword' });
    const visitor = await t.app.inject({
      method: 'POST',
      url: '/api/users/me/password/set',
      payload: { Otp: code, NewPassword: 'secret-1' },
    });
    expect(visitor.statusCode).toBe(401);
    const row = await t.db
      .selectFrom('users')
      .select('password_hash')
      .where('id', '=', user.sub)
      .executeTakeFirst();
    expect(row?.password_hash).toBeNull();
  });

  // PGlite runs one transaction at a time, but the code's check, its use and the password's
  // write are separate statements, so the requests still interleave there.
  it('300 at once with one code set one password and tell the holder once', async () => {
    const user = await signUpByMobile(t);
    const code = await freshCode(user.msisdn);
    const answers = await Promise.all(
      Array.from({ length: 300 }, (_, i) =>
        setPassword(user.access_token, { Otp: code, NewPassword: `secret-${i}0` }),
      ),
    );
    const set = answers.flatMap((answer, i) => (answer.statusCode === 200 ? [i] : []));
    expect(set).toHaveLength(1);
    const refusals = answers
      .filter((answer) => answer.statusCode !== 200)
      .map((answer) => `${answer.statusCode} ${answer.json().error}`);
    // The code is used once; the others find it used (or, once failures pile up on it, locked), or
    // the password set already.
    const allowed = new Set(['400 invalid_code', '400 code_locked', '409 password_exists']);
    expect(refusals.filter((refusal) => !allowed.has(refusal))).toEqual([]);
    // The password set is the one request that was answered 200.
    const signedIn = await grant(t, {
      grant_type: 'password',
      username: user.msisdn,
      password: `secret-${set[0]}0`,
    });
    expect(signedIn.statusCode, signedIn.body).toBe(200);
    const outbox = await t.app.inject({ method: 'GET', url: '/dev/outbox', query: { to: user.msisdn } });
    const texts = (outbox.json() as { text: string }[]).map((message) => message.text);
    expect(texts.filter((text) => text.startsWith('A password was set on your Tunes account'))).toHaveLength(
      1,
    );
  }, 120_000);
});
