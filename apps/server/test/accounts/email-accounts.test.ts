import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hashPassword } from '../../src/modules/accounts/secrets.js';
import { grant, lastMessage, requestOtp, validateOtp } from '../helpers/accounts.js';
import { bearer, createUser, STORE } from '../helpers/factories.js';
import { createTestApp, type TestApp } from '../helpers/test-app.js';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => {
  await t.close();
});

let counter = 0;
const freshEmail = () => `user${Date.now()}${counter++}@example.mn`;

const register = (payload: Record<string, unknown>) =>
  t.app.inject({ method: 'POST', url: '/api/users/register', headers: STORE, payload });

async function registerEmail(email: string, password = 'secret-1') {
  t.clock.advance(31_000);
  await requestOtp(t, { email, otpprovider: 'email', language: 'en' });
  const { code } = await lastMessage(t, email);
  expect((await validateOtp(t, { email, otp: code ?? '' })).json()).toEqual({ error: null });
  const created = await register({
    Email: email,
    Username: email,
    Password: password,
    Country: 'MN',
    Language: 'en',
    Otp: code,
  });
  t.clock.advance(1000);
  return created;
}

describe('e-mail registration and login', () => {
  it('registers with the e-mailed code and then signs in with the password', async () => {
    const email = freshEmail();
    await requestOtp(t, { email: email.toUpperCase(), otpprovider: 'email', language: 'en' });
    const message = await lastMessage(t, email);
    expect(message).toMatchObject({ channel: 'email', to: email, code: expect.stringMatching(/^\d{4}$/) });

    const created = await register({
      Email: email,
      Username: email,
      Password: 'secret-1',
      Country: 'AU',
      Language: 'en',
      Otp: message.code,
    });
    expect(created.statusCode).toBe(201);
    const { UserId } = created.json();

    const wrong = await grant(t, { grant_type: 'password', username: email, password: 'wrong-password' });
    expect(wrong.statusCode).toBe(400);
    expect(wrong.json()).toMatchObject({
      error: 'invalid_grant',
      message: 'Login failed. Please check your details and try again.',
    });
    // An unknown account gets the very same answer, so it does not tell who has an account.
    const unknown = await grant(t, { grant_type: 'password', username: freshEmail(), password: 'secret-1' });
    expect(unknown.statusCode).toBe(400);
    expect(unknown.json()).toEqual(wrong.json());

    const login = await grant(t, {
      grant_type: 'password',
      username: email,
      password: 'secret-1',
      skip_decryption: 'true',
    });
    expect(login.statusCode).toBe(200);
    const profile = await t.app.inject({
      method: 'GET',
      url: `/api/users/${UserId}/profile`,
      headers: bearer(login.json().access_token),
    });
    expect(profile.json()).toMatchObject({ PrimaryEmail: email, Iso2CountryCode: 'AU', IsVerified: true });
    const stored = await t.db
      .selectFrom('users')
      .select('password_hash')
      .where('id', '=', UserId)
      .executeTakeFirstOrThrow();
    expect(stored.password_hash).toMatch(/^scrypt\$/);
    expect(stored.password_hash).not.toContain('secret-1');
  });

  it('answers 409 from validateotp for an address already in use', async () => {
    const email = freshEmail();
    expect((await registerEmail(email)).statusCode).toBe(201);
    t.clock.advance(31_000);
    await requestOtp(t, { email, otpprovider: 'email' });
    const { code } = await lastMessage(t, email);
    const answer = await validateOtp(t, { email, otp: code ?? '' });
    expect(answer.statusCode).toBe(409);
    expect(answer.json().message).toContain('already associated with another account');
    const again = await register({ Email: email, Password: 'secret-1', Country: 'MN', Otp: code });
    expect(again.statusCode).toBe(409);
  });

  it('an account whose password is shorter than new ones may be still signs in with it', async () => {
    const email = freshEmail();
    await createUser(t.db, {
      primary_email: email,
      password_hash: await hashPassword('secret'),
      is_verified: true,
    });
    const login = await grant(t, { grant_type: 'password', username: email, password: 'secret' });
    expect(login.statusCode, login.body).toBe(200);
  });

  it('refuses registration with a wrong code or bad fields, naming the field, and creates nothing', async () => {
    const email = freshEmail();
    await requestOtp(t, { email, otpprovider: 'email' });
    const { code } = await lastMessage(t, email);
    const base = {
      Email: email,
      Username: email,
      Password: 'secret-1',
      Country: 'MN',
      Language: 'en',
      Otp: code,
    };
    const cases: [Record<string, unknown>, string][] = [
      [{ ...base, Otp: code === '0000' ? '1111' : '0000' }, 'Otp'],
      [{ ...base, Password: '12345' }, 'Password'],
      [{ ...base, Password: '' }, 'Password'],
      [{ ...base, Email: 'bad address@x.mn' }, 'Email'],
      [{ ...base, Country: 'US' }, 'Country'],
      [{ ...base, Username: 'other@example.mn' }, 'Username'],
    ];
    for (const [payload, field] of cases) {
      const response = await register(payload);
      expect(response.statusCode, field).toBe(400);
      expect(response.json()).toMatchObject({ field });
    }
    expect(await t.db.selectFrom('users').where('primary_email', '=', email).selectAll().execute()).toEqual(
      [],
    );
  });

  it('password grant errors name the field', async () => {
    const missing = await grant(t, { grant_type: 'password', username: 'a@b.mn' });
    expect(missing.statusCode).toBe(400);
    expect(missing.json()).toMatchObject({ field: 'password' });
    const unknown = await grant(t, { grant_type: 'magic' });
    expect(unknown.json()).toMatchObject({ error: 'unsupported_grant_type', field: 'grant_type' });
    const noType = await grant(t, {});
    expect(noType.statusCode).toBe(400);
    expect(noType.json()).toMatchObject({ field: 'grant_type' });
  });

  it('holds back password sign-in from one address after 5 failures (429 with Retry-After)', async () => {
    const email = freshEmail();
    await registerEmail(email);
    for (let i = 0; i < 5; i++) {
      expect(
        (await grant(t, { grant_type: 'password', username: email, password: 'nope-nope' })).statusCode,
      ).toBe(400);
    }
    const locked = await grant(t, { grant_type: 'password', username: email, password: 'secret-1' });
    expect(locked.statusCode).toBe(429);
    expect(locked.headers['retry-after']).toBeDefined();
  });
});

describe('forgot password', () => {
  it('e-mails a single-use link that sets a new password', async () => {
    const email = freshEmail();
    await registerEmail(email, 'old-secret');
    const forgot = await t.app.inject({
      method: 'POST',
      url: '/api/users/forgot-password',
      headers: STORE,
      payload: { Email: email, Language: 'MN' },
    });
    expect(forgot.statusCode).toBe(200);
    expect(forgot.json().message).toBe(
      "If an account exists you'll receive a link by email to create a new password.",
    );
    const { link } = await lastMessage(t, email);
    expect(link).toMatch(/^http:\/\/localhost:3000\/reset-password\?token=[\w-]{40,}$/);
    const token = new URL(link ?? '').searchParams.get('token');

    const reset = (Password: string) =>
      t.app.inject({
        method: 'POST',
        url: '/api/users/reset-password',
        headers: STORE,
        payload: { Token: token, Password },
      });
    expect((await reset('12345')).json()).toMatchObject({ field: 'Password' });
    const changed = await reset('new-secret');
    expect(changed.statusCode).toBe(200);
    // The address to sign in with, for the login form that follows (issue 37).
    expect(changed.json()).toMatchObject({ Email: email });
    const again = await reset('third-secret');
    expect(again.statusCode).toBe(400);
    expect(again.json()).toMatchObject({ field: 'Token' });

    expect(
      (await grant(t, { grant_type: 'password', username: email, password: 'old-secret' })).statusCode,
    ).toBe(400);
    expect(
      (await grant(t, { grant_type: 'password', username: email, password: 'new-secret' })).statusCode,
    ).toBe(200);
  });

  it('expires the link after an hour', async () => {
    const email = freshEmail();
    await registerEmail(email);
    await t.app.inject({
      method: 'POST',
      url: '/api/users/forgot-password',
      headers: STORE,
      payload: { Email: email },
    });
    const { link } = await lastMessage(t, email);
    t.clock.advance(60 * 60_000 + 1000);
    const response = await t.app.inject({
      method: 'POST',
      url: '/api/users/reset-password',
      headers: STORE,
      payload: { Token: new URL(link ?? '').searchParams.get('token'), Password: 'another1' },
    });
    expect(response.statusCode).toBe(400);
    expect(response.json()).toMatchObject({ field: 'Token' });
  });

  it('answers the same for an unknown address and sends nothing', async () => {
    const email = freshEmail();
    const response = await t.app.inject({
      method: 'POST',
      url: '/api/users/forgot-password',
      headers: STORE,
      payload: { Email: email, Language: 'MN' },
    });
    expect(response.statusCode).toBe(200);
    const outbox = await t.app.inject({ method: 'GET', url: '/dev/outbox', query: { to: email } });
    expect(outbox.json()).toEqual([]);
    const bad = await t.app.inject({
      method: 'POST',
      url: '/api/users/forgot-password',
      headers: STORE,
      payload: { Email: '' },
    });
    expect(bad.statusCode).toBe(400);
    expect(bad.json()).toMatchObject({ field: 'Email' });
  });
});
