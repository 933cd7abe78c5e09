import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { hashPassword } from '../../src/modules/accounts/secrets.js';
import { bearer, createUser, STORE } from '../helpers/factories.js';
import { createTestApp, type TestApp, testDatabaseKind } from '../helpers/test-app.js';

/**
 * Sign-out everywhere is immediate (issue 37, lib/revoked-sessions.ts): after a logout, a device
 * signed out, "sign out all other devices" or a password change, the ended sign-in's access
 * token — stateless, with minutes left — is refused on every API process within seconds, reads
 * included, while the device that asked goes on.
 */

interface Tokens {
  access_token: string;
  refresh_token: string;
}

async function emailUser(t: TestApp, password = 'old-secret') {
  const email = `revoked-${Date.now()}-${Math.random().toString(36).slice(2, 7)}@example.mn`;
  const user = await createUser(t.db, {
    username: email,
    primary_email: email,
    password_hash: await hashPassword(password),
  });
  return { email, password, userId: user.id };
}

async function signIn(t: TestApp, email: string, password: string): Promise<Tokens> {
  const answer = await t.app.inject({
    method: 'POST',
    url: '/api/oauth2/token',
    headers: { ...STORE, 'content-type': 'application/x-www-form-urlencoded' },
    payload: new URLSearchParams({ grant_type: 'password', username: email, password }).toString(),
  });
  expect(answer.statusCode, answer.body).toBe(200);
  return answer.json() as Tokens;
}

const profileOf = (t: TestApp, userId: string, tokens: Tokens) =>
  t.app.inject({ method: 'GET', url: `/api/users/${userId}/profile`, headers: bearer(tokens.access_token) });

/** The status the profile answers `tokens` on `t`, once it is `status` or `timeoutMs` has passed. */
async function profileStatusWithin(
  t: TestApp,
  userId: string,
  tokens: Tokens,
  status: number,
  timeoutMs: number,
) {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const answer = (await profileOf(t, userId, tokens)).statusCode;
    if (answer === status || Date.now() > deadline) return answer;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

describe('on one process', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(async () => {
    await t.close();
  });
  beforeEach(() => {
    t.clock.advance(60_000);
  });

  it("'sign out all other devices' refuses the others' access tokens at once, reads included", async () => {
    const { email, password, userId } = await emailUser(t);
    const laptop = await signIn(t, email, password);
    const phone = await signIn(t, email, password);
    const tablet = await signIn(t, email, password);
    expect((await profileOf(t, userId, phone)).statusCode).toBe(200);

    const out = await t.app.inject({
      method: 'DELETE',
      url: '/api/users/me/sessions',
      headers: bearer(laptop.access_token),
    });
    expect(out.statusCode).toBe(204);

    for (const other of [phone, tablet]) {
      const refused = await profileOf(t, userId, other);
      expect(refused.statusCode).toBe(401);
      expect(refused.json()).toMatchObject({ error: 'unauthorized', message: 'This sign-in has ended.' });
      const sessions = await t.app.inject({
        method: 'GET',
        url: '/api/users/me/sessions',
        headers: bearer(other.access_token),
      });
      expect(sessions.statusCode).toBe(401);
    }
    expect((await profileOf(t, userId, laptop)).statusCode).toBe(200);
  });

  it("a password change refuses every other device's access token; the one that changed it goes on", async () => {
    const { email, password, userId } = await emailUser(t);
    const laptop = await signIn(t, email, password);
    const phone = await signIn(t, email, password);
    const changed = await t.app.inject({
      method: 'POST',
      url: '/api/users/me/password',
      headers: bearer(laptop.access_token),
      payload: { CurrentPassword: password, NewPassword: 'a-new-secret' },
    });
    expect(changed.statusCode, changed.body).toBe(200);
    expect((await profileOf(t, userId, phone)).statusCode).toBe(401);
    expect((await profileOf(t, userId, laptop)).statusCode).toBe(200);
  });

  it("logout refuses a copy of that device's access token; a new sign-in is not affected", async () => {
    const { email, password, userId } = await emailUser(t);
    const browser = await signIn(t, email, password);
    const out = await t.app.inject({
      method: 'DELETE',
      url: '/api/users/me/sessions/current',
      headers: bearer(browser.access_token),
    });
    expect(out.statusCode).toBe(204);
    expect((await profileOf(t, userId, browser)).statusCode).toBe(401);
    const again = await signIn(t, email, password);
    expect((await profileOf(t, userId, again)).statusCode).toBe(200);
  });

  it('a reused refresh token ends its sign-in: the access token issued with the stolen one is refused', async () => {
    const { email, password, userId } = await emailUser(t);
    const first = await signIn(t, email, password);
    const refresh = (tokens: Tokens) =>
      t.app.inject({
        method: 'POST',
        url: '/api/oauth2/token',
        headers: { ...STORE, 'content-type': 'application/x-www-form-urlencoded' },
        payload: new URLSearchParams({
          grant_type: 'refresh_token',
          refresh_token: tokens.refresh_token,
        }).toString(),
      });
    const second = (await refresh(first)).json() as Tokens;
    expect((await profileOf(t, userId, second)).statusCode).toBe(200);
    expect((await refresh(first)).statusCode).toBe(400); // spent: the family is revoked
    expect((await profileOf(t, userId, second)).statusCode).toBe(401);
  });

  it('tokens of no sign-in (development tools) and of live sign-ins cost no round trip and pass', async () => {
    const { userId } = await emailUser(t);
    const answer = await t.app.inject({
      method: 'GET',
      url: `/api/users/${userId}/profile`,
      headers: await t.authHeader(userId),
    });
    expect(answer.statusCode).toBe(200);
  });
});

/**
 * N processes on one PostgreSQL: the process that ended the sign-in is not the one the other
 * device reaches. Without Redis the ended sign-ins are shared through the database; with it,
 * through Redis. Either way the other process refuses the token within seconds (it looks once a
 * second), never after the token's own expiry.
 */
for (const store of ['database', 'Redis'] as const) {
  describe.skipIf(testDatabaseKind !== 'postgres')(`across processes sharing the ${store}`, () => {
    let first: TestApp;
    let second: TestApp;
    const env: Record<string, string> = store === 'Redis' ? { REDIS_URL: 'redis://127.0.0.1:6379' } : {};
    beforeAll(async () => {
      first = await createTestApp(env);
      second = await createTestApp(env, { shareDatabaseWith: first });
    });
    afterAll(async () => {
      await second?.close();
      await first?.close();
    });

    it("'sign out all other devices' on one process is refused on the other within seconds", async () => {
      const { email, password, userId } = await emailUser(first);
      const laptop = await signIn(first, email, password);
      const phone = await signIn(second, email, password);
      expect((await profileOf(second, userId, phone)).statusCode).toBe(200);

      const out = await first.app.inject({
        method: 'DELETE',
        url: '/api/users/me/sessions',
        headers: bearer(laptop.access_token),
      });
      expect(out.statusCode).toBe(204);
      const startedAt = Date.now();
      expect(await profileStatusWithin(second, userId, phone, 401, 5000)).toBe(401);
      expect(Date.now() - startedAt).toBeLessThan(3000);
      expect((await profileOf(second, userId, laptop)).statusCode).toBe(200);
    });

    it('a password change on one process is refused on the other within seconds', async () => {
      const { email, password, userId } = await emailUser(first);
      const laptop = await signIn(first, email, password);
      const phone = await signIn(first, email, password);
      expect((await profileOf(second, userId, phone)).statusCode).toBe(200);
      const changed = await second.app.inject({
        method: 'POST',
        url: '/api/users/me/password',
        headers: bearer(laptop.access_token),
        payload: { CurrentPassword: password, NewPassword: 'a-new-secret' },
      });
      expect(changed.statusCode, changed.body).toBe(200);
      expect(await profileStatusWithin(first, userId, phone, 401, 5000)).toBe(401);
      expect((await profileOf(first, userId, laptop)).statusCode).toBe(200);
    });

    it('a process started after the sign-out refuses the token from its first call', async () => {
      const { email, password, userId } = await emailUser(first);
      const phone = await signIn(first, email, password);
      const out = await first.app.inject({
        method: 'DELETE',
        url: '/api/users/me/sessions/current',
        headers: bearer(phone.access_token),
      });
      expect(out.statusCode).toBe(204);
      const third = await createTestApp(env, { shareDatabaseWith: first });
      try {
        expect((await profileOf(third, userId, phone)).statusCode).toBe(401);
      } finally {
        await third.close();
      }
    });
  });
}
