import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { hashPassword } from '../../src/modules/accounts/secrets.js';
import { grant, lastMessage, requestOtp, signUpByMobile } from '../helpers/accounts.js';
import { bearer, createSubscription, createUser, familyPackage, STORE } from '../helpers/factories.js';
import { createTestApp, type TestApp } from '../helpers/test-app.js';

/** product.md §14: change password, signed-in devices, download my data, delete my account. */
let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => {
  await t.close();
});
beforeEach(() => {
  t.clock.advance(60_000); // past every resend window of the case before
});

const CHROME =
  'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/130.0 Safari/537.36';
const IPHONE =
  'Mozilla/5.0 (iPhone; CPU iPhone OS 17_0 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.0 Mobile/15E148 Safari/604.1';

async function emailUser(password = 'old-secret') {
  const email = `self-${Date.now()}-${Math.random().toString(36).slice(2, 7)}@example.mn`;
  await createUser(t.db, {
    username: email,
    primary_email: email,
    password_hash: await hashPassword(password),
  });
  return { email, password };
}

/** Signs in by password from a device; answers its tokens. */
async function signIn(email: string, password: string, userAgent = CHROME, remoteAddress = '203.0.113.10') {
  const answer = await t.app.inject({
    method: 'POST',
    url: '/api/oauth2/token',
    headers: { ...STORE, 'content-type': 'application/x-www-form-urlencoded', 'user-agent': userAgent },
    payload: new URLSearchParams({ grant_type: 'password', username: email, password }).toString(),
    remoteAddress,
  });
  expect(answer.statusCode).toBe(200);
  return answer.json() as { access_token: string; refresh_token: string };
}

const auth = (tokens: { access_token: string }) => bearer(tokens.access_token);
const refresh = (tokens: { refresh_token: string }) =>
  grant(t, { grant_type: 'refresh_token', refresh_token: tokens.refresh_token });

describe('changing the password', () => {
  it('needs the current one, ends every other device, and tells the holder', async () => {
    const { email, password } = await emailUser();
    const laptop = await signIn(email, password);
    const phone = await signIn(email, password, IPHONE);
    const change = (CurrentPassword: string, NewPassword: string) =>
      t.app.inject({
        method: 'POST',
        url: '/api/users/me/password',
        headers: auth(laptop),
        payload: { CurrentPassword, NewPassword },
      });

    const wrong = await change('not-it', 'new-secret');
    expect(wrong.statusCode).toBe(400);
    expect((await change(password, '123')).json()).toMatchObject({ field: 'NewPassword' });
    expect((await change(password, 'new-secret')).statusCode).toBe(200);

    expect((await grant(t, { grant_type: 'password', username: email, password })).statusCode).toBe(400);
    expect(
      (await grant(t, { grant_type: 'password', username: email, password: 'new-secret' })).statusCode,
    ).toBe(200);
    expect((await refresh(phone)).statusCode).toBe(400); // the other device is signed out
    expect((await refresh(laptop)).statusCode).toBe(200); // this one stays
    expect((await lastMessage(t, email)).text).toMatch(/password of your Tunes account was changed/);
  });
});

describe('signed-in devices', () => {
  it('lists each sign-in with its device, and signs one or all others out', async () => {
    const { email, password } = await emailUser();
    const laptop = await signIn(email, password, CHROME, '203.0.113.10');
    const phone = await signIn(email, password, IPHONE, '198.51.100.20');
    const tablet = await signIn(email, password, IPHONE, '198.51.100.21');

    const list = await t.app.inject({ method: 'GET', url: '/api/users/me/sessions', headers: auth(laptop) });
    const sessions = list.json() as { id: string; device: string; address: string; current: boolean }[];
    expect(sessions).toHaveLength(3);
    expect(sessions.find((session) => session.current)).toMatchObject({
      device: 'Chrome on Windows',
      address: '203.0.113.x',
    });
    expect(sessions.filter((session) => session.device === 'Safari on iOS (mobile)')).toHaveLength(2);

    const phoneSession = sessions.find((session) => session.address === '198.51.100.x' && !session.current);
    const ended = await t.app.inject({
      method: 'DELETE',
      url: `/api/users/me/sessions/${phoneSession?.id}`,
      headers: auth(laptop),
    });
    expect(ended.statusCode).toBe(204);
    const stillIn = [phone, tablet].map(refresh);
    expect((await Promise.all(stillIn)).map((answer) => answer.statusCode).sort()).toEqual([200, 400]);

    expect(
      (await t.app.inject({ method: 'DELETE', url: '/api/users/me/sessions', headers: auth(laptop) }))
        .statusCode,
    ).toBe(204);
    const after = await t.app.inject({ method: 'GET', url: '/api/users/me/sessions', headers: auth(laptop) });
    expect(after.json()).toHaveLength(1);

    // Another listener's device is not theirs to end.
    const stranger = await emailUser();
    const strangerTokens = await signIn(stranger.email, stranger.password);
    const mine = (after.json() as { id: string }[])[0]?.id;
    const refused = await t.app.inject({
      method: 'DELETE',
      url: `/api/users/me/sessions/${mine}`,
      headers: auth(strangerTokens),
    });
    expect(refused.statusCode).toBe(404);
  });
});

describe('logout and an ended sign-in', () => {
  const details = (tokens: { access_token: string }, FirstName: string) =>
    t.app.inject({
      method: 'PATCH',
      url: '/api/users/me/details',
      headers: auth(tokens),
      payload: { FirstName },
    });

  it('logout ends this sign-in: its refresh token is refused, its device leaves the list', async () => {
    const { email, password } = await emailUser();
    const laptop = await signIn(email, password);
    const phone = await signIn(email, password, IPHONE);

    const out = await t.app.inject({
      method: 'DELETE',
      url: '/api/users/me/sessions/current',
      headers: auth(phone),
    });
    expect(out.statusCode).toBe(204);
    expect((await refresh(phone)).statusCode).toBe(400);
    const list = await t.app.inject({ method: 'GET', url: '/api/users/me/sessions', headers: auth(laptop) });
    expect((list.json() as { device: string }[]).map((session) => session.device)).toEqual([
      'Chrome on Windows',
    ]);
    expect((await refresh(laptop)).statusCode).toBe(200); // the other device stays signed in
  });

  it("an ended sign-in's access token changes nothing, exports nothing and reads nothing", async () => {
    const { email, password } = await emailUser();
    const laptop = await signIn(email, password);
    const phone = await signIn(email, password, IPHONE);
    const before = await details(phone, 'Before');
    expect(before.statusCode).toBe(200);
    const userId = before.json().UserId as string;

    const list = await t.app.inject({ method: 'GET', url: '/api/users/me/sessions', headers: auth(laptop) });
    const phoneId = (list.json() as { id: string; current: boolean }[]).find((s) => !s.current)?.id;
    await t.app.inject({ method: 'DELETE', url: `/api/users/me/sessions/${phoneId}`, headers: auth(laptop) });

    // A burst of writes from the signed-out device: every one refused, none applied.
    const burst = await Promise.all(Array.from({ length: 300 }, (_, i) => details(phone, `After${i}`)));
    expect(burst.map((answer) => answer.statusCode)).toEqual(Array(300).fill(401));
    expect(burst[0]?.json()).toMatchObject({ message: 'This sign-in has ended.' });
    const exported = await t.app.inject({ method: 'GET', url: '/api/users/me/export', headers: auth(phone) });
    expect(exported.statusCode).toBe(401);

    expect((await details(laptop, 'Kept')).statusCode).toBe(200); // the device that stayed writes on
    const profile = await t.app.inject({
      method: 'GET',
      url: `/api/users/${userId}/profile`,
      headers: auth(phone),
    });
    // Reads too are refused at once, though the token has minutes left (lib/revoked-sessions.ts).
    expect(profile.statusCode).toBe(401);
    expect(profile.json()).toMatchObject({ message: 'This sign-in has ended.' });
    const own = await t.app.inject({
      method: 'GET',
      url: `/api/users/${userId}/profile`,
      headers: auth(laptop),
    });
    expect(own.json().FirstName).toBe('Kept');
  });
});

describe('download my data', () => {
  it("holds the listener's profile, sign-ins and messages, and nobody else's", async () => {
    const me = await signUpByMobile(t);
    const other = await signUpByMobile(t);
    t.clock.advance(31_000);
    await requestOtp(t, { msisdn: me.msisdn }); // sent to the account (the sign-up code was to a free number)
    const answer = await t.app.inject({ method: 'GET', url: '/api/users/me/export', headers: auth(me) });
    expect(answer.statusCode).toBe(200);
    expect(answer.headers['content-disposition']).toContain('attachment');
    const data = answer.json();
    expect(data).toMatchObject({ account: { id: me.sub }, profile: { PhoneNumber: me.msisdn } });
    expect(data.messages).toMatchObject([
      { to: me.msisdn, text: expect.stringMatching(/^Your Tunes code is ••••/) },
    ]);
    expect(data.sessions.length).toBe(1);
    const text = JSON.stringify(data);
    expect(text).not.toContain(other.msisdn);
    expect(text).not.toContain(other.sub);
  });
});

describe('deleting the account', () => {
  it('needs a fresh code, erases the person, and frees the number to register anew', async () => {
    const me = await signUpByMobile(t);
    const wrong = await t.app.inject({
      method: 'DELETE',
      url: '/api/users/me',
      headers: auth(me),
      payload: { Otp: '0000' },
    });
    expect(wrong.statusCode).toBe(400);

    t.clock.advance(31_000);
    await requestOtp(t, { msisdn: me.msisdn });
    const { code } = await lastMessage(t, me.msisdn);
    const deleted = await t.app.inject({
      method: 'DELETE',
      url: '/api/users/me',
      headers: auth(me),
      payload: { Otp: code },
    });
    expect(deleted.statusCode).toBe(204);

    expect((await refresh(me)).statusCode).toBe(400);
    const profile = await t.app.inject({
      method: 'GET',
      url: `/api/users/${me.sub}/profile`,
      headers: auth(me),
    });
    // Deleting the account ended its sign-ins: the token left is refused before anything is read.
    expect(profile.statusCode).toBe(401);
    const row = await t.db.selectFrom('users').selectAll().where('id', '=', me.sub).executeTakeFirstOrThrow();
    expect(row).toMatchObject({
      phone_number: null,
      primary_email: null,
      first_name: '',
      password_hash: null,
    });
    expect(row.deleted_at).not.toBeNull();

    // The number registers again as a new account.
    t.clock.advance(31_000);
    const again = await signUpByMobile(t, me.msisdn);
    expect(again.sub).not.toBe(me.sub);
  });

  it('with a password, and a wrong one is refused', async () => {
    const { email, password } = await emailUser();
    const tokens = await signIn(email, password);
    const remove = (Password: string) =>
      t.app.inject({ method: 'DELETE', url: '/api/users/me', headers: auth(tokens), payload: { Password } });
    expect((await remove('wrong-one')).statusCode).toBe(400);
    expect((await remove(password)).statusCode).toBe(204);
    expect((await grant(t, { grant_type: 'password', username: email, password })).statusCode).toBe(400);
  });

  it("a member's deletion frees their seat and tells the plan's owner", async () => {
    const owner = await createUser(t.db);
    const plan = await createSubscription(t.db, owner.id, await familyPackage(t.db), {
      start: t.clock.now(),
    });
    const me = await signUpByMobile(t);
    await t.app.inject({
      method: 'PATCH',
      url: '/api/users/me/details',
      headers: auth(me),
      payload: { FirstName: 'Anu' },
    });
    const ownerAuth = { ...STORE, ...(await t.authHeader(owner.id)) };
    const invite = await t.app.inject({
      method: 'POST',
      url: `/api/subscription/${plan.id}/invitation-code`,
      headers: ownerAuth,
    });
    const code = invite.json().Code as string;
    const joined = await t.app.inject({
      method: 'POST',
      url: `/api/subscription/invitations/${code}`,
      headers: auth(me),
    });
    expect(joined.statusCode).toBe(200);

    t.clock.advance(31_000);
    await requestOtp(t, { msisdn: me.msisdn });
    const { code: otp } = await lastMessage(t, me.msisdn);
    const deleted = await t.app.inject({
      method: 'DELETE',
      url: '/api/users/me',
      headers: auth(me),
      payload: { Otp: otp },
    });
    expect(deleted.statusCode).toBe(204);
    expect((await lastMessage(t, owner.phone_number ?? '')).text).toMatch(/^Anu left your shared Tunes plan/);
    const members = await t.app.inject({
      method: 'GET',
      url: `/api/subscription/${plan.id}/shared-by/`,
      headers: ownerAuth,
    });
    expect(members.json()).toEqual([]);
  });
});
