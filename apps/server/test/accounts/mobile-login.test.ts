import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { grant, lastMessage, requestOtp, signUpByMobile, validateOtp } from '../helpers/accounts.js';
import { bearer, createUser, randomMsisdn, STORE } from '../helpers/factories.js';
import { createTestApp, type TestApp } from '../helpers/test-app.js';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => {
  await t.close();
});

describe('mobile sign-in', () => {
  it('sends a 4-digit code by SMS that /dev/outbox shows', async () => {
    const msisdn = randomMsisdn();
    const response = await requestOtp(t, { msisdn, language: 'en' });
    expect(response.statusCode).toBe(200);
    const outbox = await t.app.inject({ method: 'GET', url: '/dev/outbox', query: { to: msisdn } });
    const [message] = outbox.json();
    expect(message).toMatchObject({
      channel: 'sms',
      to: msisdn,
      code: expect.stringMatching(/^\d{4}$/),
      link: null,
    });
    expect(message.text).toContain(message.code);
    expect(new Date(message.createdAt).getTime()).toBeGreaterThan(0);
  });

  it('registers a new number on 604 and then signs it in', async () => {
    const msisdn = randomMsisdn();
    await requestOtp(t, { msisdn });
    const { code } = await lastMessage(t, msisdn);
    expect((await validateOtp(t, { msisdn, otp: code ?? '' })).json()).toEqual({ error: null });
    expect((await validateOtp(t, { msisdn, otp: code ?? '' })).json()).toEqual({ error: '610' });

    const first = await grant(t, { grant_type: 'msisdn', msisdn, code: code ?? '', skip_decryption: 'true' });
    expect(first.statusCode).toBe(400);
    expect(first.json()).toMatchObject({ error: '604', error_description: expect.any(String) });

    const registered = await t.app.inject({
      method: 'POST',
      url: '/api/users/registerbymsisdn',
      headers: STORE,
      payload: { PhoneNumber: msisdn.slice(3), CountryCode: 976, Token: code },
    });
    expect(registered.statusCode).toBe(201);

    const second = await grant(t, { grant_type: 'msisdn', msisdn, code: code ?? '' });
    expect(second.statusCode).toBe(200);
    expect(second.json()).toMatchObject({
      access_token: expect.any(String),
      refresh_token: expect.any(String),
      token_type: 'Bearer',
      expires_in: 900,
    });
    // The code is spent by the sign-in.
    expect((await grant(t, { grant_type: 'msisdn', msisdn, code: code ?? '' })).statusCode).toBe(403);
  });

  it('signs a returning number in directly', async () => {
    const user = await createUser(t.db);
    await requestOtp(t, { msisdn: user.phone_number ?? '' });
    const { code } = await lastMessage(t, user.phone_number ?? '');
    const answer = await grant(t, {
      grant_type: 'msisdn',
      msisdn: user.phone_number ?? '',
      code: code ?? '',
    });
    expect(answer.statusCode).toBe(200);
    const profile = await t.app.inject({
      method: 'GET',
      url: `/api/users/${user.id}/profile`,
      headers: bearer(answer.json().access_token),
    });
    expect(profile.json()).toMatchObject({ UserId: user.id, PhoneNumber: user.phone_number });
  });

  it('answers 603 for a number that cannot be a phone number and 403 for a wrong code', async () => {
    const bad = await grant(t, { grant_type: 'msisdn', msisdn: '9761234', code: '1234' });
    expect(bad.statusCode).toBe(400);
    expect(bad.json()).toMatchObject({ error: '603', field: 'msisdn' });

    const msisdn = randomMsisdn();
    await requestOtp(t, { msisdn });
    const { code } = await lastMessage(t, msisdn);
    const wrong = code === '0000' ? '1111' : '0000';
    const answer = await grant(t, { grant_type: 'msisdn', msisdn, code: wrong });
    expect(answer.statusCode).toBe(403);
    expect(answer.json()).toMatchObject({ error: '403', field: 'code' });
  });

  it('accepts other countries by their own rules and Mongolia with exactly 8 digits', async () => {
    expect((await requestOtp(t, { msisdn: '61412345678' })).statusCode).toBe(200);
    for (const msisdn of ['9768811223', '976881122334', '1555', 'abc']) {
      const response = await requestOtp(t, { msisdn });
      expect(response.statusCode).toBe(400);
      expect(response.json()).toMatchObject({ field: 'msisdn' });
    }
    const registration = await t.app.inject({
      method: 'POST',
      url: '/api/users/registerbymsisdn',
      headers: STORE,
      payload: { PhoneNumber: '8811223', CountryCode: 976, Token: '1234' },
    });
    expect(registration.statusCode).toBe(400);
    expect(registration.json()).toMatchObject({ field: 'PhoneNumber' });
  });

  it('refuses a second registration of the same number with 409', async () => {
    const { msisdn } = await signUpByMobile(t);
    t.clock.advance(31_000);
    await requestOtp(t, { msisdn });
    const { code } = await lastMessage(t, msisdn);
    const again = await t.app.inject({
      method: 'POST',
      url: '/api/users/registerbymsisdn',
      headers: STORE,
      payload: { PhoneNumber: msisdn.slice(3), CountryCode: 976, Token: code },
    });
    expect(again.statusCode).toBe(409);
  });

  it('refuses registration with a wrong code, naming Token, and creates nothing', async () => {
    const msisdn = randomMsisdn();
    await requestOtp(t, { msisdn });
    const { code } = await lastMessage(t, msisdn);
    const response = await t.app.inject({
      method: 'POST',
      url: '/api/users/registerbymsisdn',
      headers: STORE,
      payload: { PhoneNumber: msisdn.slice(3), CountryCode: 976, Token: code === '0000' ? '1111' : '0000' },
    });
    expect(response.statusCode).toBe(400);
    expect(response.json()).toMatchObject({ field: 'Token' });
    expect(await t.db.selectFrom('users').where('phone_number', '=', msisdn).selectAll().execute()).toEqual(
      [],
    );
  });
});
