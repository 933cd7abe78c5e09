import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hashPassword } from '../../src/modules/accounts/secrets.js';
import { grant, lastMessage, signUpByMobile } from '../helpers/accounts.js';
import { bearer, createUser, siteHeaders } from '../helpers/factories.js';
import { createTestApp, type TestApp } from '../helpers/test-app.js';

/**
 * security.md: a changed e-mail address takes effect only after the code sent to it, the old
 * address is told, and no answer reveals whether another account has an address.
 */
let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => {
  await t.close();
});

const freshEmail = (name: string) =>
  `${name}-${Date.now()}-${Math.random().toString(36).slice(2, 7)}@example.mn`;

async function signedInEmailUser(password = 'old-secret') {
  const email = freshEmail('owner');
  const user = await createUser(t.db, {
    username: email,
    primary_email: email,
    password_hash: await hashPassword(password),
  });
  return { id: user.id, email, password, headers: await siteHeaders(t, user.id) };
}

const patchEmail = (headers: Record<string, string>, Email: string) =>
  t.app.inject({ method: 'PATCH', url: '/api/users/me/details', headers, payload: { Email } });

const confirm = (headers: Record<string, string>, Otp: string) =>
  t.app.inject({ method: 'POST', url: '/api/users/me/email/confirm', headers, payload: { Otp } });

describe('changing the e-mail address', () => {
  it('sends a code to the new address and changes nothing until it is entered', async () => {
    const user = await signedInEmailUser();
    const newEmail = freshEmail('new');
    const asked = await patchEmail(user.headers, newEmail);
    expect(asked.statusCode).toBe(200);
    expect(asked.json()).toMatchObject({ PrimaryEmail: user.email, PendingEmail: newEmail });
    const { code, text } = await lastMessage(t, newEmail);
    expect(code).toMatch(/^\d{4}$/);
    expect(text).toContain(code);

    // Until confirmed, the old address still signs in and receives reset links; the new does not.
    expect(
      (await grant(t, { grant_type: 'password', username: newEmail, password: user.password })).statusCode,
    ).toBe(400);
    expect(
      (await grant(t, { grant_type: 'password', username: user.email, password: user.password })).statusCode,
    ).toBe(200);

    const wrong = await confirm(user.headers, code === '0000' ? '0001' : '0000');
    expect(wrong.statusCode).toBe(400);
    expect(wrong.json()).toMatchObject({ field: 'Otp' });

    const confirmed = await confirm(user.headers, code ?? '');
    expect(confirmed.statusCode).toBe(200);
    expect(confirmed.json()).toMatchObject({ PrimaryEmail: newEmail, PendingEmail: null });
    // The address is now how the account signs in, and the old address is told.
    expect(
      (await grant(t, { grant_type: 'password', username: newEmail, password: user.password })).statusCode,
    ).toBe(200);
    const notice = await lastMessage(t, user.email);
    expect(notice.text).toContain(newEmail);
    expect(notice.code).toBeNull();
  });

  it('answers the same for a taken address; only the holder of its code learns it is taken', async () => {
    const taken = freshEmail('taken');
    await createUser(t.db, { username: taken, primary_email: taken });
    const user = await signedInEmailUser();
    const free = freshEmail('free');

    const forTaken = await patchEmail(user.headers, taken);
    const forFree = await patchEmail((await signedInEmailUser()).headers, free);
    expect(forTaken.statusCode).toBe(forFree.statusCode);
    expect(Object.keys(forTaken.json()).sort()).toEqual(Object.keys(forFree.json()).sort());

    const { code } = await lastMessage(t, taken);
    const refused = await confirm(user.headers, code ?? '');
    expect(refused.statusCode).toBe(409);
    expect(refused.json()).toMatchObject({ error: 'email_in_use' });
    const profile = await t.app.inject({
      method: 'GET',
      url: `/api/users/${user.id}/profile`,
      headers: user.headers,
    });
    expect(profile.json()).toMatchObject({ PrimaryEmail: user.email });
  });

  it('locks the code after 5 wrong tries sent at once', async () => {
    const user = await signedInEmailUser();
    const newEmail = freshEmail('locked');
    await patchEmail(user.headers, newEmail);
    const { code } = await lastMessage(t, newEmail);
    const guesses = Array.from({ length: 200 }, (_, n) => String(n).padStart(4, '0')).filter(
      (g) => g !== code,
    );
    const answers = await Promise.all(guesses.map((guess) => confirm(user.headers, guess)));
    expect(answers.every((answer) => answer.statusCode === 400)).toBe(true);
    const right = await confirm(user.headers, code ?? '');
    expect(right.statusCode).toBe(400);
    // The right code is refused as locked, not as wrong: only a new code helps.
    expect(right.json()).toMatchObject({ error: 'code_locked', field: 'Otp' });
  });

  it('gives a mobile account an address only once confirmed, and saving the current one cancels', async () => {
    const me = await signUpByMobile(t);
    const headers = bearer(me.access_token);
    const wanted = freshEmail('mobile');
    expect((await patchEmail(headers, wanted)).json()).toMatchObject({
      PrimaryEmail: null,
      PendingEmail: wanted,
    });
    // The form sends the current (empty) address again: the pending change is withdrawn.
    const cancelled = await patchEmail(headers, '');
    expect(cancelled.json()).toMatchObject({ PrimaryEmail: null, PendingEmail: null });
    expect((await confirm(headers, (await lastMessage(t, wanted)).code ?? '')).statusCode).toBe(400);
  });
  it('lets one account start at most 5 address changes an hour, however many arrive at once', async () => {
    const user = await signedInEmailUser();
    const answers = await Promise.all(
      Array.from({ length: 30 }, (_, i) => patchEmail(user.headers, freshEmail(`spray${i}`))),
    );
    const statuses = answers.map((answer) => answer.statusCode);
    expect(statuses.filter((status) => status === 200)).toHaveLength(5);
    expect(statuses.filter((status) => status === 429)).toHaveLength(25);
    const refused = answers.find((answer) => answer.statusCode === 429);
    expect(refused?.json()).toMatchObject({ error: 'too_many_requests' });
    expect(Number(refused?.headers['retry-after'])).toBeGreaterThan(0);
  });
});
