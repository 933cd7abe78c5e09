import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { hashPassword } from '../../src/modules/accounts/secrets.js';
import { grant, lastMessage, requestOtp } from '../helpers/accounts.js';
import {
  bearer,
  createSubscription,
  createUser,
  familyPackage,
  randomMsisdn,
  STORE,
  withPlans,
} from '../helpers/factories.js';
import { subscriber } from '../helpers/premium.js';
import { createTestApp, type TestApp } from '../helpers/test-app.js';

/**
 * The listener's language is the account's (issue 37): set at sign-up from the site's language,
 * changed when they switch language while signed in (PATCH /api/users/me/details `Language`), and
 * every message to the account is written in it — sign-in codes, reset links, renewal reminders,
 * renewed notices, family notices — whatever language a later call happens to name.
 */
const DAY = 86_400_000;
let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
  await withPlans(t);
});
afterAll(async () => {
  await t.close();
});
beforeEach(() => {
  t.clock.advance(60_000); // past every resend window of the case before
});

interface Tokens {
  access_token: string;
  refresh_token: string;
}
const subOf = (tokens: Tokens) =>
  JSON.parse(Buffer.from(tokens.access_token.split('.')[1] ?? '', 'base64url').toString()).sub as string;

/** Mobile sign-up as the site makes it, in the site's `language`: code, 604, register, grant. */
async function signUpInLanguage(language: 'en' | 'mn' | undefined, msisdn = randomMsisdn()) {
  await requestOtp(t, { msisdn, language: language ?? 'en' });
  const { code } = await lastMessage(t, msisdn);
  const form = { grant_type: 'msisdn', msisdn, code: code ?? '' };
  expect((await grant(t, form)).json()).toMatchObject({ error: '604' });
  const registered = await t.app.inject({
    method: 'POST',
    url: '/api/users/registerbymsisdn',
    headers: STORE,
    payload: {
      PhoneNumber: msisdn.slice(3),
      CountryCode: 976,
      Token: code,
      ...(language ? { Language: language } : {}),
    },
  });
  expect(registered.statusCode, registered.body).toBe(201);
  const tokens = (await grant(t, form)).json() as Tokens;
  return { msisdn, tokens, sub: subOf(tokens) };
}

async function profileOf(tokens: Tokens) {
  const answer = await t.app.inject({
    method: 'GET',
    url: `/api/users/${subOf(tokens)}/profile`,
    headers: bearer(tokens.access_token),
  });
  expect(answer.statusCode).toBe(200);
  return answer.json() as { Language: string; FirstName: string };
}

const setLanguage = (tokens: Tokens, payload: Record<string, unknown>) =>
  t.app.inject({
    method: 'PATCH',
    url: '/api/users/me/details',
    headers: bearer(tokens.access_token),
    payload,
  });

const MONGOLIAN_CODE = /^Tunes баталгаажуулах код: \d{4}\./;
const ENGLISH_CODE = /^Your Tunes code is \d{4}\./;

describe('the language of an account', () => {
  it('is the site’s at mobile sign-up: later codes come in it, whatever language the request names', async () => {
    const { msisdn, tokens } = await signUpInLanguage('mn');
    expect((await profileOf(tokens)).Language).toBe('mn');

    t.clock.advance(60_000);
    await requestOtp(t, { msisdn, language: 'en' });
    expect((await lastMessage(t, msisdn)).text).toMatch(MONGOLIAN_CODE);
  });

  it('is English for a sign-up that names none (the contract before issue 37)', async () => {
    const { tokens } = await signUpInLanguage(undefined);
    expect((await profileOf(tokens)).Language).toBe('en');
  });

  it('changes when the signed-in listener switches language; the next code and reset link follow', async () => {
    const { msisdn, tokens } = await signUpInLanguage('en');
    const switched = await setLanguage(tokens, { Language: 'mn' });
    expect(switched.statusCode, switched.body).toBe(200);
    expect(switched.json()).toMatchObject({ Language: 'mn' });
    expect((await profileOf(tokens)).Language).toBe('mn');
    t.clock.advance(60_000);
    await requestOtp(t, { msisdn, language: 'en' });
    expect((await lastMessage(t, msisdn)).text).toMatch(MONGOLIAN_CODE);

    const back = await setLanguage(tokens, { Language: 'EN' });
    expect(back.json()).toMatchObject({ Language: 'en' });
    t.clock.advance(60_000);
    await requestOtp(t, { msisdn, language: 'mn' });
    expect((await lastMessage(t, msisdn)).text).toMatch(ENGLISH_CODE);
  });

  it('the whole profile form state keeps it; an unknown language is refused and changes nothing', async () => {
    const { tokens } = await signUpInLanguage('mn');
    const profile = await profileOf(tokens);
    const saved = await setLanguage(tokens, { ...profile, FirstName: 'Bat' });
    expect(saved.statusCode, saved.body).toBe(200);
    expect(saved.json()).toMatchObject({ FirstName: 'Bat', Language: 'mn' });

    const refused = await setLanguage(tokens, { Language: 'fr', FirstName: 'Dorj' });
    expect(refused.statusCode).toBe(400);
    expect(refused.json()).toMatchObject({ field: 'Language' });
    expect(await profileOf(tokens)).toMatchObject({ Language: 'mn', FirstName: 'Bat' });
  });

  it('of an e-mail account is the site’s at sign-up, and its reset link comes in it', async () => {
    const email = `lang-${Date.now()}@example.mn`;
    await requestOtp(t, { email, otpprovider: 'email', language: 'mn' });
    const { code, text } = await lastMessage(t, email);
    expect(text).toMatch(MONGOLIAN_CODE);
    const registered = await t.app.inject({
      method: 'POST',
      url: '/api/users/register',
      headers: STORE,
      payload: {
        Email: email,
        Username: email,
        Password: 'secret-1',
        Country: 'MN',
        Language: 'mn',
        Otp: code,
      },
    });
    expect(registered.statusCode, registered.body).toBe(201);
    // The site sends 'MN' here (product.md §9); the account's language decides either way.
    t.clock.advance(1000); // the outbox lists newest first, by business time
    const forgot = await t.app.inject({
      method: 'POST',
      url: '/api/users/forgot-password',
      headers: STORE,
      payload: { Email: email, Language: 'en' },
    });
    expect(forgot.statusCode, forgot.body).toBe(200);
    expect((await lastMessage(t, email)).text).toMatch(/^Шинэ нууц үг үүсгэхийн тулд/);
  });

  it('writes the renewal reminder and the renewed notice in it', async () => {
    const { user, headers, period } = await subscriber(t);
    const switched = await t.app.inject({
      method: 'PATCH',
      url: '/api/users/me/details',
      headers,
      payload: { Language: 'mn' },
    });
    expect(switched.statusCode, switched.body).toBe(200);
    const msisdn = user.phone_number ?? '';
    const end = period.end_date.getTime();
    const runDue = async (time: number) => {
      const advanceSeconds = Math.ceil((time - t.clock.now().getTime()) / 1000);
      expect(
        (await t.app.inject({ method: 'POST', url: '/dev/clock', payload: { advanceSeconds } })).statusCode,
      ).toBe(200);
      expect((await t.app.inject({ method: 'POST', url: '/dev/jobs/run-due' })).statusCode).toBe(200);
    };
    await runDue(end - 3 * DAY + 60_000);
    expect((await lastMessage(t, msisdn)).text).toMatch(/^Таны Премиум багц .+-нд сунгагдана\./);
    await runDue(end + 60_000);
    expect((await lastMessage(t, msisdn)).text).toMatch(/^Таны Премиум багц сунгагдлаа: /);
  }, 60_000);

  it("writes 'member left' to the plan's owner in the owner's language", async () => {
    const owner = await createUser(t.db, { first_name: 'Bolor', language: 'mn' });
    const subscription = await createSubscription(t.db, owner.id, await familyPackage(t.db), {
      start: t.clock.now(),
      autoRenew: true,
    });
    const member = await createUser(t.db, {
      first_name: 'Saraa',
      password_hash: await hashPassword('x-secret'),
    });
    const call = async (method: 'POST', url: string, userId: string) =>
      t.app.inject({ method, url: `/api${url}`, headers: await t.authHeader(userId) });
    const code = (await call('POST', `/subscription/${subscription.id}/invitation-code`, owner.id)).json()
      .Code;
    expect((await call('POST', `/subscription/invitations/${code}`, member.id)).statusCode).toBe(200);
    expect((await call('POST', `/subscription/${subscription.id}/leave`, member.id)).statusCode).toBe(204);
    expect((await lastMessage(t, owner.phone_number ?? '')).text).toBe(
      'Saraa таны хуваалцсан Tunes багцаас гарлаа. Суудал чөлөөлөгдсөн тул профайлаасаа өөр хүн урьж болно.',
    );
  });
});
