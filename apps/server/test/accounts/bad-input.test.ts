import type { InjectOptions } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { lastMessage, requestOtp, signUpByMobile } from '../helpers/accounts.js';
import { bearer, createUser, STORE } from '../helpers/factories.js';
import { createTestApp, type TestApp } from '../helpers/test-app.js';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => {
  await t.close();
});

const FORM = { ...STORE, 'content-type': 'application/x-www-form-urlencoded' };

/** Rows of the tables the accounts calls write; bad input must change none of them. */
async function snapshot() {
  const [users, otp, refresh, resets, spent] = await Promise.all([
    t.db.selectFrom('users').selectAll().orderBy('id').execute(),
    t.db.selectFrom('otp_codes').selectAll().orderBy('id').execute(),
    t.db.selectFrom('refresh_tokens').selectAll().orderBy('id').execute(),
    t.db.selectFrom('password_resets').selectAll().orderBy('token_hash').execute(),
    t.db.selectFrom('spent_hmac_tokens').selectAll().orderBy('signature').execute(),
  ]);
  return { users, otp, refresh, resets, spent };
}

describe('bad input to the accounts calls', () => {
  it('answers 400 naming the field, never a 500, and changes nothing', async () => {
    const me = await signUpByMobile(t);
    const signedIn = bearer(me.access_token);
    const msisdn = me.msisdn;
    const cases: [InjectOptions, string][] = [
      // requestotp / validateotp
      [{ method: 'GET', url: '/api/users/requestotp?msisdn=97688112233&msisdn=97688112234' }, 'msisdn'],
      [{ method: 'GET', url: `/api/users/requestotp?msisdn=${'9'.repeat(400)}` }, 'msisdn'],
      [{ method: 'GET', url: '/api/users/requestotp?email=a%40b' }, 'email'],
      [{ method: 'GET', url: `/api/users/validateotp?msisdn=${msisdn}` }, 'otp'],
      [{ method: 'GET', url: `/api/users/validateotp?msisdn=${msisdn}&otp=12345` }, 'otp'],
      [{ method: 'GET', url: '/api/users/validateotp?msisdn=976abc&otp=1234' }, 'msisdn'],
      // registerbymsisdn
      [
        { method: 'POST', url: '/api/users/registerbymsisdn', payload: { CountryCode: 976, Token: '1234' } },
        'PhoneNumber',
      ],
      [
        {
          method: 'POST',
          url: '/api/users/registerbymsisdn',
          payload: { PhoneNumber: '88112233', CountryCode: 'abc', Token: '1234' },
        },
        'CountryCode',
      ],
      [
        {
          method: 'POST',
          url: '/api/users/registerbymsisdn',
          payload: { PhoneNumber: '88112233', CountryCode: 976, Token: 1234 },
        },
        'Token',
      ],
      [
        {
          method: 'POST',
          url: '/api/users/registerbymsisdn',
          payload: { PhoneNumber: ['88112233'], CountryCode: 976, Token: '1234' },
        },
        'PhoneNumber',
      ],
      // register
      [
        {
          method: 'POST',
          url: '/api/users/register',
          payload: { Password: 'secret-1', Country: 'MN', Otp: '1234' },
        },
        'Email',
      ],
      [
        {
          method: 'POST',
          url: '/api/users/register',
          payload: { Email: 'x@example.mn', Password: 'p'.repeat(500), Country: 'MN', Otp: '1234' },
        },
        'Password',
      ],
      [
        {
          method: 'POST',
          url: '/api/users/register',
          payload: {
            Email: 'x@example.mn',
            Password: 'secret-1',
            Country: 'MN',
            Language: 'fr',
            Otp: '1234',
          },
        },
        'Language',
      ],
      [
        {
          method: 'POST',
          url: '/api/users/register',
          payload: { Email: 'x@example.mn', Password: 'secret-1', Country: 'MN' },
        },
        'Otp',
      ],
      // forgot / reset password
      [{ method: 'POST', url: '/api/users/forgot-password', payload: { Email: 'nobody' } }, 'Email'],
      [{ method: 'POST', url: '/api/users/forgot-password', payload: { Email: 'a @b.mn' } }, 'Email'],
      [
        {
          method: 'POST',
          url: '/api/users/reset-password',
          payload: { Token: 'short', Password: 'secret-1' },
        },
        'Token',
      ],
      [
        {
          method: 'POST',
          url: '/api/users/reset-password',
          payload: { Token: 'x'.repeat(43), Password: '' },
        },
        'Password',
      ],
      // token endpoint
      [
        { method: 'POST', url: '/api/oauth2/token', headers: FORM, payload: `grant_type=${'x'.repeat(100)}` },
        'grant_type',
      ],
      [
        {
          method: 'POST',
          url: '/api/oauth2/token',
          headers: FORM,
          payload: `grant_type=msisdn&msisdn=${msisdn}&code=${'1'.repeat(50)}`,
        },
        'code',
      ],
      [
        {
          method: 'POST',
          url: '/api/oauth2/token',
          headers: FORM,
          payload: 'grant_type=password&username=a%40b.mn',
        },
        'password',
      ],
      [
        {
          method: 'POST',
          url: '/api/oauth2/token',
          headers: FORM,
          payload: `grant_type=refresh_token&refresh_token=${'r'.repeat(300)}`,
        },
        'refresh_token',
      ],
      // silent login, profile, details, logins
      [
        { method: 'POST', url: '/api/users/12345/validateHMAC', headers: { authorization: '1.abc' } },
        'userId',
      ],
      [{ method: 'GET', url: '/api/users/not-a-user/profile', headers: signedIn }, 'sub'],
      [
        { method: 'PATCH', url: '/api/users/me/details', headers: signedIn, payload: { FirstName: 123 } },
        'FirstName',
      ],
      [
        {
          method: 'PATCH',
          url: '/api/users/me/details',
          headers: signedIn,
          payload: { Email: `${'a'.repeat(46)}@x.mn` },
        },
        'Email',
      ],
      [
        { method: 'PATCH', url: '/api/users/me/details', headers: signedIn, payload: { UserId: 'someone' } },
        'UserId',
      ],
      [{ method: 'GET', url: '/api/users/getlogins', headers: signedIn }, 'id'],
      [{ method: 'GET', url: '/api/users/getlogins?id=1', headers: signedIn }, 'id'],
    ];

    const before = await snapshot();
    for (const [request, field] of cases) {
      const response = await t.app.inject({ ...request, headers: { ...STORE, ...request.headers } });
      const label = `${request.method} ${request.url}`;
      expect(response.statusCode, label).toBe(400);
      expect(response.json(), label).toMatchObject({ field, message: expect.any(String) });
      expect(response.json().message, label).not.toBe('');
    }
    expect(await snapshot()).toEqual(before);
  });

  it('refuses a body that is not JSON, or JSON where a form is expected, with a 4xx', async () => {
    const before = await snapshot();
    const notJson = await t.app.inject({
      method: 'POST',
      url: '/api/users/register',
      headers: { ...STORE, 'content-type': 'application/json' },
      payload: '{"Email": ',
    });
    expect(notJson.statusCode).toBe(400);
    const asJson = await t.app.inject({
      method: 'POST',
      url: '/api/oauth2/token',
      headers: STORE,
      payload: { grant_type: ['password'], username: { $ne: '' }, password: 'x' },
    });
    expect(asJson.statusCode).toBe(400);
    expect(asJson.json()).toMatchObject({ field: 'grant_type' });
    const noBody = await t.app.inject({ method: 'POST', url: '/api/users/forgot-password', headers: STORE });
    expect(noBody.statusCode).toBe(400);
    expect(await snapshot()).toEqual(before);
  });
});

describe('another user’s profile', () => {
  it('refuses (403) a details change that names another user, and changes nothing', async () => {
    const me = await signUpByMobile(t);
    const other = await createUser(t.db, { first_name: 'Other' });
    const signedIn = bearer(me.access_token);
    const before = await snapshot();
    const response = await t.app.inject({
      method: 'PATCH',
      url: '/api/users/me/details',
      headers: signedIn,
      payload: { UserId: other.id, FirstName: 'Hijacked', Email: 'hijack@example.mn' },
    });
    expect(response.statusCode).toBe(403);
    expect(response.json()).toMatchObject({ error: 'forbidden' });
    expect(await snapshot()).toEqual(before);

    // The whole form state of the user's own profile is accepted (product.md §3).
    const profile = await t.app.inject({
      method: 'GET',
      url: `/api/users/${me.sub}/profile`,
      headers: signedIn,
    });
    const own = await t.app.inject({
      method: 'PATCH',
      url: '/api/users/me/details',
      headers: signedIn,
      payload: { ...profile.json<Record<string, unknown>>(), FirstName: 'Mine' },
    });
    expect(own.statusCode).toBe(200);
    expect(own.json()).toMatchObject({ UserId: me.sub, FirstName: 'Mine' });
  });
});

describe('forgot password throttle', () => {
  it('answers 429 with Retry-After after 5 requests an hour for one address', async () => {
    const email = `throttle${Date.now()}@example.mn`;
    t.clock.set(Math.ceil(t.clock.now().getTime() / 3_600_000) * 3_600_000);
    const forgot = () =>
      t.app.inject({
        method: 'POST',
        url: '/api/users/forgot-password',
        headers: STORE,
        payload: { Email: email, Language: 'MN' },
      });
    for (let i = 0; i < 5; i++) expect((await forgot()).statusCode).toBe(200);
    const capped = await forgot();
    expect(capped.statusCode).toBe(429);
    expect(Number(capped.headers['retry-after'])).toBeGreaterThan(0);
    t.clock.advance(3_600_000);
    expect((await forgot()).statusCode).toBe(200);
  });
});

describe('e-mail one-time codes', () => {
  it('throttle resends and cap codes per address per hour like numbers', async () => {
    const email = `cap${Date.now()}@example.mn`;
    t.clock.set(Math.ceil(t.clock.now().getTime() / 3_600_000) * 3_600_000);
    const ask = () => requestOtp(t, { email, otpprovider: 'email', language: 'en' });
    expect((await ask()).statusCode).toBe(200);
    const early = await ask();
    expect(early.statusCode).toBe(429);
    expect(Number(early.headers['retry-after'])).toBe(30);
    for (let i = 0; i < 4; i++) {
      t.clock.advance(31_000);
      expect((await ask()).statusCode).toBe(200);
    }
    t.clock.advance(31_000);
    const capped = await ask();
    expect(capped.statusCode).toBe(429);
    expect(Number(capped.headers['retry-after'])).toBeGreaterThan(30);
    expect((await lastMessage(t, email)).code).toMatch(/^\d{4}$/);
  });
});
