import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { hashPassword } from '../../src/modules/accounts/secrets.js';
import { grant, lastMessage, requestOtp, signUpByMobile } from '../helpers/accounts.js';
import { bearer as bearerOf, createUser, randomMsisdn, STORE } from '../helpers/factories.js';
import { createTestApp, type TestApp } from '../helpers/test-app.js';

/**
 * security.md: a changed phone number takes effect only after the code sent to the new one, the
 * old one is told, no answer reveals whether another account has a number, and the changes one
 * account may start are limited.
 */
let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => {
  await t.close();
});
beforeEach(() => {
  t.clock.advance(61 * 60_000); // past every resend window and hourly limit of the case before
});

const bearer = (tokens: { access_token: string }) => bearerOf(tokens.access_token);

const askFor = (headers: Record<string, string>, msisdn: string, CountryCode: number | string = 976) =>
  t.app.inject({
    method: 'POST',
    url: '/api/users/me/phone',
    headers,
    payload: { PhoneNumber: msisdn.slice(3), CountryCode },
  });

const confirm = (headers: Record<string, string>, Otp: string) =>
  t.app.inject({ method: 'POST', url: '/api/users/me/phone/confirm', headers, payload: { Otp } });

/** Signs a number in by code: 200 with tokens, or 400 "604" when no account has it. */
async function signInByNumber(msisdn: string) {
  t.clock.advance(31_000);
  await requestOtp(t, { msisdn });
  const { code } = await lastMessage(t, msisdn);
  return grant(t, { grant_type: 'msisdn', msisdn, code: code ?? '' });
}

const otherThan = (code: string | null) => (code === '0000' ? '0001' : '0000');

describe('changing the phone number', () => {
  it('sends a code to the new number and changes nothing until it is entered; the old number is told', async () => {
    const me = await signUpByMobile(t);
    const headers = bearer(me);
    const newNumber = randomMsisdn();

    const asked = await askFor(headers, newNumber);
    expect(asked.statusCode).toBe(200);
    expect(asked.json()).toMatchObject({ PhoneNumber: me.msisdn, PendingPhone: newNumber });
    const { code, text } = await lastMessage(t, newNumber);
    expect(code).toMatch(/^\d{4}$/);
    expect(text).toContain(code);

    // Until confirmed, the old number still signs in and the new one is nobody's.
    expect((await signInByNumber(newNumber)).json()).toMatchObject({ error: '604' });

    const wrong = await confirm(headers, otherThan(code));
    expect(wrong.statusCode).toBe(400);
    expect(wrong.json()).toMatchObject({ field: 'Otp', error: 'invalid_code' });

    const confirmed = await confirm(headers, code ?? '');
    expect(confirmed.statusCode).toBe(200);
    expect(confirmed.json()).toMatchObject({ PhoneNumber: newNumber, PendingPhone: null });
    const notice = await lastMessage(t, me.msisdn);
    expect(notice.code).toBeNull();
    expect(notice.text).toContain(newNumber.slice(-4));
    expect(notice.text).not.toContain(newNumber);

    // The new number signs in to the same account; the old one is free to register anew.
    const signedIn = await signInByNumber(newNumber);
    expect(signedIn.statusCode).toBe(200);
    const logins = await t.app.inject({
      method: 'GET',
      url: `/api/users/getlogins?id=${me.sub}`,
      headers: bearer(signedIn.json()),
    });
    expect(logins.json()).toEqual(
      expect.arrayContaining([
        { Type: 'Msisdn', Value: newNumber },
        { Type: 'Username', Value: newNumber },
      ]),
    );
    expect((await signInByNumber(me.msisdn)).json()).toMatchObject({ error: '604' });
    // A code is spent once.
    expect((await confirm(headers, code ?? '')).json()).toMatchObject({ error: 'no_pending_change' });
  });

  it('answers the same for a taken number; only the holder of its code learns it is taken', async () => {
    const holder = await createUser(t.db);
    const me = await signUpByMobile(t);
    const someone = await signUpByMobile(t);
    const free = randomMsisdn();

    const forTaken = await askFor(bearer(me), holder.phone_number ?? '');
    const forFree = await askFor(bearer(someone), free);
    expect(forTaken.statusCode).toBe(forFree.statusCode);
    expect(Object.keys(forTaken.json()).sort()).toEqual(Object.keys(forFree.json()).sort());

    const { code } = await lastMessage(t, holder.phone_number ?? '');
    const refused = await confirm(bearer(me), code ?? '');
    expect(refused.statusCode).toBe(409);
    expect(refused.json()).toMatchObject({ error: 'phone_in_use' });
    const profile = await t.app.inject({
      method: 'GET',
      url: `/api/users/${me.sub}/profile`,
      headers: bearer(me),
    });
    expect(profile.json()).toMatchObject({ PhoneNumber: me.msisdn });
  });

  it('naming the current number, or withdrawing, drops a waiting change', async () => {
    const me = await signUpByMobile(t);
    const wanted = randomMsisdn();
    await askFor(bearer(me), wanted);
    const withdrawn = await askFor(bearer(me), me.msisdn);
    expect(withdrawn.json()).toMatchObject({ PhoneNumber: me.msisdn, PendingPhone: null });
    const { code } = await lastMessage(t, wanted);
    expect((await confirm(bearer(me), code ?? '')).json()).toMatchObject({ error: 'no_pending_change' });

    // Or the change is withdrawn outright (an account without a number has no current one to name).
    t.clock.advance(31_000);
    await askFor(bearer(me), wanted);
    const dropped = await t.app.inject({
      method: 'DELETE',
      url: '/api/users/me/phone/pending',
      headers: bearer(me),
    });
    expect(dropped.json()).toMatchObject({ PhoneNumber: me.msisdn, PendingPhone: null });
    const again = await lastMessage(t, wanted);
    expect((await confirm(bearer(me), again.code ?? '')).json()).toMatchObject({
      error: 'no_pending_change',
    });
  });

  it('gives an e-mail account a number once confirmed, and tells its address', async () => {
    const email = `phone-${Date.now()}@example.mn`;
    const user = await createUser(t.db, {
      username: email,
      primary_email: email,
      password_hash: await hashPassword('secret-1'),
    });
    const headers = { ...STORE, ...(await t.authHeader(user.id)) };
    const wanted = randomMsisdn();
    expect((await askFor(headers, wanted)).json()).toMatchObject({ PhoneNumber: null, PendingPhone: wanted });
    const confirmed = await confirm(headers, (await lastMessage(t, wanted)).code ?? '');
    expect(confirmed.json()).toMatchObject({ PhoneNumber: wanted, PrimaryEmail: email, HasPassword: true });
    expect((await lastMessage(t, email)).text).toContain(wanted.slice(-4));
    // The account still signs in with its address; the number is an extra way in.
    const byPassword = await grant(t, { grant_type: 'password', username: email, password: 'secret-1' });
    expect(byPassword.statusCode).toBe(200);
  });

  it('refuses a bad number naming the field, and limits the changes one account may start', async () => {
    const me = await signUpByMobile(t);
    const bad = await t.app.inject({
      method: 'POST',
      url: '/api/users/me/phone',
      headers: bearer(me),
      payload: { PhoneNumber: '123', CountryCode: 976 },
    });
    expect(bad.statusCode).toBe(400);
    expect(bad.json()).toMatchObject({ field: 'PhoneNumber' });
    const huge = await t.app.inject({
      method: 'POST',
      url: '/api/users/me/phone',
      headers: bearer(me),
      payload: { PhoneNumber: '9'.repeat(10_000) },
    });
    expect(huge.statusCode).toBe(400);

    const answers = [];
    for (let i = 0; i < 6; i++) answers.push((await askFor(bearer(me), randomMsisdn())).statusCode);
    expect(answers).toEqual([200, 200, 200, 200, 200, 429]);
  });

  it('20 confirmations at once with the right code change the number once and tell the old number once', async () => {
    const me = await signUpByMobile(t);
    const wanted = randomMsisdn();
    await askFor(bearer(me), wanted);
    const { code } = await lastMessage(t, wanted);
    const answers = await Promise.all(Array.from({ length: 20 }, () => confirm(bearer(me), code ?? '')));
    expect(answers.filter((answer) => answer.statusCode === 200)).toHaveLength(1);
    expect(answers.every((answer) => answer.statusCode === 200 || answer.statusCode === 400)).toBe(true);
    const notices = await t.app.inject({ method: 'GET', url: '/dev/outbox', query: { to: me.msisdn } });
    const changed = (notices.json() as { text: string }[]).filter((message) =>
      message.text.includes('phone number of your Tunes account was changed'),
    );
    expect(changed).toHaveLength(1);
  });

  it('two accounts confirming one number at once: one gets it, the other is told it is taken', async () => {
    const wanted = randomMsisdn();
    const first = await signUpByMobile(t);
    const second = await signUpByMobile(t);
    await askFor(bearer(first), wanted);
    const firstCode = (await lastMessage(t, wanted)).code ?? '';
    t.clock.advance(31_000);
    await askFor(bearer(second), wanted);
    const secondCode = (await lastMessage(t, wanted)).code ?? '';

    const answers = await Promise.all([
      confirm(bearer(first), firstCode),
      confirm(bearer(second), secondCode),
    ]);
    expect(answers.map((answer) => answer.statusCode).sort()).toEqual([200, 409]);
    const holders = await t.db.selectFrom('users').select('id').where('phone_number', '=', wanted).execute();
    expect(holders).toHaveLength(1);
  });
});
