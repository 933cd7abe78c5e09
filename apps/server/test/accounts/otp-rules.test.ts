import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { grant, lastMessage, requestOtp, validateOtp } from '../helpers/accounts.js';
import { randomMsisdn, STORE } from '../helpers/factories.js';
import { createTestApp, type TestApp } from '../helpers/test-app.js';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => {
  await t.close();
});

const wrongCodeFor = (code: string | null) => (code === '0000' ? '1111' : '0000');

describe('one-time code rules (security.md)', () => {
  it('refuses a resend within 30 seconds with 429 and Retry-After, then allows it', async () => {
    const msisdn = randomMsisdn();
    expect((await requestOtp(t, { msisdn })).statusCode).toBe(200);
    t.clock.advance(10_000);
    const early = await requestOtp(t, { msisdn });
    expect(early.statusCode).toBe(429);
    expect(Number(early.headers['retry-after'])).toBe(20);
    expect(early.json()).toMatchObject({ error: 'too_many_requests' });
    t.clock.advance(20_000);
    expect((await requestOtp(t, { msisdn })).statusCode).toBe(200);
  });

  it('caps codes per number per hour', async () => {
    const msisdn = randomMsisdn();
    t.clock.set(Math.ceil(t.clock.now().getTime() / 3_600_000) * 3_600_000);
    for (let i = 0; i < 5; i++) {
      expect((await requestOtp(t, { msisdn })).statusCode).toBe(200);
      t.clock.advance(31_000);
    }
    const capped = await requestOtp(t, { msisdn });
    expect(capped.statusCode).toBe(429);
    expect(Number(capped.headers['retry-after'])).toBeGreaterThan(30);
    t.clock.advance(3_600_000);
    expect((await requestOtp(t, { msisdn })).statusCode).toBe(200);
  });

  it('expires a code after 5 minutes', async () => {
    const msisdn = randomMsisdn();
    await requestOtp(t, { msisdn });
    const { code } = await lastMessage(t, msisdn);
    t.clock.advance(5 * 60_000 + 1000);
    expect((await validateOtp(t, { msisdn, otp: code ?? '' })).json()).toEqual({ error: '612' });
    expect((await grant(t, { grant_type: 'msisdn', msisdn, code: code ?? '' })).statusCode).toBe(403);
  });

  it('locks a code after 5 wrong tries, even for the right code', async () => {
    const msisdn = randomMsisdn();
    await requestOtp(t, { msisdn });
    const { code } = await lastMessage(t, msisdn);
    for (let i = 0; i < 4; i++) {
      expect((await validateOtp(t, { msisdn, otp: wrongCodeFor(code) })).json()).toEqual({ error: '611' });
    }
    expect((await grant(t, { grant_type: 'msisdn', msisdn, code: wrongCodeFor(code) })).statusCode).toBe(403);
    expect((await validateOtp(t, { msisdn, otp: code ?? '' })).json()).toEqual({ error: '613' });
    expect((await grant(t, { grant_type: 'msisdn', msisdn, code: code ?? '' })).statusCode).toBe(403);
  });

  it('refuses a locked code as locked (code_locked), not as wrong, wherever a code is taken', async () => {
    const msisdn = randomMsisdn();
    await requestOtp(t, { msisdn });
    const { code } = await lastMessage(t, msisdn);
    for (let i = 0; i < 5; i++) await validateOtp(t, { msisdn, otp: wrongCodeFor(code) });

    const granted = await grant(t, { grant_type: 'msisdn', msisdn, code: code ?? '' });
    expect(granted.statusCode).toBe(403);
    expect(granted.json()).toMatchObject({ error: 'code_locked', field: 'code' });
    const registered = await t.app.inject({
      method: 'POST',
      url: '/api/users/registerbymsisdn',
      headers: STORE,
      payload: { PhoneNumber: msisdn.slice(3), CountryCode: 976, Token: code ?? '' },
    });
    expect(registered.statusCode).toBe(400);
    expect(registered.json()).toMatchObject({ error: 'code_locked', field: 'Token' });

    // A wrong code that is not yet locked keeps its own answer.
    const other = randomMsisdn();
    await requestOtp(t, { msisdn: other });
    const fresh = await lastMessage(t, other);
    const wrong = await grant(t, { grant_type: 'msisdn', msisdn: other, code: wrongCodeFor(fresh.code) });
    expect(wrong.json()).toMatchObject({ error: '403' });
  });

  it('a new code works after a locked one', async () => {
    const msisdn = randomMsisdn();
    await requestOtp(t, { msisdn });
    const locked = await lastMessage(t, msisdn);
    for (let i = 0; i < 5; i++) await validateOtp(t, { msisdn, otp: wrongCodeFor(locked.code) });
    t.clock.advance(31_000);
    expect((await requestOtp(t, { msisdn })).statusCode).toBe(200);
    const fresh = await lastMessage(t, msisdn);
    expect((await validateOtp(t, { msisdn, otp: fresh.code ?? '' })).json()).toEqual({ error: null });
  });

  it('makes an earlier code stop working when a new one is sent', async () => {
    const msisdn = randomMsisdn();
    await requestOtp(t, { msisdn });
    const first = await lastMessage(t, msisdn);
    t.clock.advance(31_000);
    await requestOtp(t, { msisdn });
    const second = await lastMessage(t, msisdn);
    if (first.code !== second.code) {
      expect((await validateOtp(t, { msisdn, otp: first.code ?? '' })).json()).not.toEqual({ error: null });
    }
    expect((await validateOtp(t, { msisdn, otp: second.code ?? '' })).json()).toEqual({ error: null });
  });

  it('names the bad field for malformed input', async () => {
    const cases: [Record<string, string>, string][] = [
      [{}, 'msisdn'],
      [{ msisdn: '97688112233', email: 'a@b.mn' }, 'msisdn'],
      [{ email: 'not an email' }, 'email'],
      [{ msisdn: '97688112233', language: 'fr' }, 'language'],
      [{ msisdn: '97688112233', otpprovider: 'pigeon' }, 'otpprovider'],
    ];
    for (const [query, field] of cases) {
      const response = await requestOtp(t, query);
      expect(response.statusCode, JSON.stringify(query)).toBe(400);
      expect(response.json()).toMatchObject({ error: 'bad_request', field });
    }
    const badOtp = await validateOtp(t, { msisdn: '97688112233', otp: '12a4' });
    expect(badOtp.statusCode).toBe(400);
    expect(badOtp.json()).toMatchObject({ field: 'otp' });
  });

  it('sends the code in Mongolian when asked', async () => {
    const msisdn = randomMsisdn();
    await requestOtp(t, { msisdn, language: 'mn' });
    const message = await lastMessage(t, msisdn);
    expect(message.text).toMatch(/баталгаажуулах код/);
  });
});
