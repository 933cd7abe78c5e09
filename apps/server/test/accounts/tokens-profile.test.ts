import { createSigner } from 'fast-jwt';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mintHmacToken } from '../../src/modules/accounts/hmac.js';
import { grant, lastMessage, signUpByMobile } from '../helpers/accounts.js';
import { bearer, createSubscription, createUser, STORE, singlePackage } from '../helpers/factories.js';
import { createTestApp, type TestApp } from '../helpers/test-app.js';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => {
  await t.close();
});

describe('tokens', () => {
  it('names the token endpoint at application/grantUrl', async () => {
    const response = await t.app.inject({ method: 'GET', url: '/api/application/grantUrl', headers: STORE });
    expect(response.json()).toEqual({ grantURL: '/api/oauth2/token' });
  });

  it('rotates the refresh token on every use', async () => {
    const user = await signUpByMobile(t);
    const first = await grant(t, { grant_type: 'refresh_token', refresh_token: user.refresh_token });
    expect(first.statusCode).toBe(200);
    const next = first.json();
    expect(next.refresh_token).not.toBe(user.refresh_token);
    const profile = await t.app.inject({
      method: 'GET',
      url: `/api/users/${user.sub}/profile`,
      headers: bearer(next.access_token),
    });
    expect(profile.statusCode).toBe(200);
    expect(
      (await grant(t, { grant_type: 'refresh_token', refresh_token: next.refresh_token })).statusCode,
    ).toBe(200);
  });

  it('revokes the whole family when a spent refresh token is used again', async () => {
    const user = await signUpByMobile(t);
    const rotated = (
      await grant(t, { grant_type: 'refresh_token', refresh_token: user.refresh_token })
    ).json();
    const reuse = await grant(t, { grant_type: 'refresh_token', refresh_token: user.refresh_token });
    expect(reuse.statusCode).toBe(400);
    expect(reuse.json()).toMatchObject({ error: 'invalid_grant', field: 'refresh_token' });
    // The thief's replay also kills the legitimate holder's newer token.
    expect(
      (await grant(t, { grant_type: 'refresh_token', refresh_token: rotated.refresh_token })).statusCode,
    ).toBe(400);
  });

  it('issues access tokens for this API only (iss, aud) and refuses one for another audience', async () => {
    const user = await signUpByMobile(t);
    const claims = JSON.parse(Buffer.from(user.access_token.split('.')[1] ?? '', 'base64url').toString());
    expect(claims).toMatchObject({ iss: 'tunes.mn', aud: 'tunes.mn/api', sub: user.sub });
    // The same secret signing for another audience must not open this API.
    const foreign = createSigner({
      key: Buffer.from(t.config.JWT_SECRET),
      aud: 'elsewhere',
      iss: 'tunes.mn',
    })({
      sub: user.sub,
      exp: Math.floor(Date.now() / 1000) + 600,
    });
    const answer = await t.app.inject({
      method: 'GET',
      url: `/api/users/${user.sub}/profile`,
      headers: bearer(foreign),
    });
    expect(answer.statusCode).toBe(401);

    // Nor one that names no issuer or audience at all, for reads or writes.
    const bare = createSigner({ key: Buffer.from(t.config.JWT_SECRET) })({
      sub: user.sub,
      exp: Math.floor(Date.now() / 1000) + 600,
    });
    const read = await t.app.inject({
      method: 'GET',
      url: `/api/users/${user.sub}/profile`,
      headers: bearer(bare),
    });
    expect(read.statusCode).toBe(401);
    const write = await t.app.inject({
      method: 'PATCH',
      url: '/api/users/me/details',
      headers: { ...bearer(bare), 'content-type': 'application/json' },
      payload: { FirstName: 'Forged' },
    });
    expect(write.statusCode).toBe(401);
  });

  it('refuses an unknown or expired refresh token', async () => {
    expect((await grant(t, { grant_type: 'refresh_token', refresh_token: 'made-up' })).statusCode).toBe(400);
    expect((await grant(t, { grant_type: 'refresh_token' })).json()).toMatchObject({
      field: 'refresh_token',
    });
    const user = await signUpByMobile(t);
    t.clock.advance(31 * 86_400_000);
    expect(
      (await grant(t, { grant_type: 'refresh_token', refresh_token: user.refresh_token })).statusCode,
    ).toBe(400);
    t.clock.set(Date.now());
  });
});

describe('silent login (validateHMAC)', () => {
  const validateHmac = (userId: string, authorization?: string) =>
    t.app.inject({
      method: 'POST',
      url: `/api/users/${userId}/validateHMAC`,
      headers: { ...STORE, ...(authorization ? { authorization } : {}) },
    });

  it('signs a user in once with a minted token', async () => {
    t.clock.set(Date.now());
    const user = await createUser(t.db);
    const token = mintHmacToken(t.config.HMAC_SECRET, user.id, t.clock.now());
    const first = await validateHmac(user.id, token);
    expect(first.statusCode).toBe(200);
    expect(first.json()).toMatchObject({
      access_token: expect.any(String),
      refresh_token: expect.any(String),
    });
    expect((await validateHmac(user.id, token)).statusCode).toBe(401);
  });

  it('refuses forged, expired, missing and other-user tokens with 401', async () => {
    const user = await createUser(t.db);
    const other = await createUser(t.db);
    const now = t.clock.now();
    const forged = mintHmacToken('x'.repeat(48), user.id, now);
    expect((await validateHmac(user.id, forged)).statusCode).toBe(401);
    expect((await validateHmac(user.id, mintHmacToken(t.config.HMAC_SECRET, other.id, now))).statusCode).toBe(
      401,
    );
    expect((await validateHmac(user.id)).statusCode).toBe(401);
    const old = mintHmacToken(t.config.HMAC_SECRET, user.id, new Date(now.getTime() - 5 * 60_000 - 1000));
    const answer = await validateHmac(user.id, old);
    expect(answer.statusCode).toBe(401);
    expect(answer.json().message).toBe(
      'Unauthorized access. The request was unacceptable, often due to missing a required parameter.',
    );
    const badId = await validateHmac('not-a-uuid', forged);
    expect(badId.statusCode).toBe(400);
    expect(badId.json()).toMatchObject({ field: 'userId' });
  });

  it('answers 404 for a valid token of a user that does not exist', async () => {
    const ghost = '00000000-0000-4000-8000-000000000000';
    const response = await validateHmac(ghost, mintHmacToken(t.config.HMAC_SECRET, ghost, t.clock.now()));
    expect(response.statusCode).toBe(404);
  });
});

describe('profile, details and logins', () => {
  it('returns every profile field of product.md §3 with the Subscriptions list', async () => {
    const user = await signUpByMobile(t);
    const response = await t.app.inject({
      method: 'GET',
      url: `/api/users/${user.sub}/profile`,
      headers: bearer(user.access_token),
    });
    expect(response.statusCode).toBe(200);
    expect(Object.keys(response.json()).sort()).toEqual(
      [
        'UserId',
        'FirstName',
        'LastName',
        'DisplayName',
        'PrimaryEmail',
        'PendingEmail',
        'PhoneNumber',
        'PendingPhone',
        'HasPassword',
        'IsPublic',
        'Language',
        'BirthYear',
        'Gender',
        'OptedIn',
        'AudioQuality',
        'IsVerified',
        'UserCentricsControllerID',
        'Iso2CountryCode',
        'TestUser',
        'Tags',
        'Subscriptions',
        'PremiumEndedAt',
      ].sort(),
    );
    expect(response.json()).toMatchObject({
      PhoneNumber: user.msisdn,
      Subscriptions: [],
      PremiumEndedAt: null,
    });
  });

  it('tells when Premium ended for a listener whose last period is over (lapsed)', async () => {
    const user = await signUpByMobile(t);
    const pkg = await singlePackage(t.db);
    const start = new Date(t.clock.now().getTime() - 40 * 86_400_000);
    const older = await createSubscription(t.db, user.sub, pkg, { start, days: 5 });
    const last = await createSubscription(t.db, user.sub, pkg, { start, days: 30 });
    expect(older.end_date < last.end_date).toBe(true);
    const response = await t.app.inject({
      method: 'GET',
      url: `/api/users/${user.sub}/profile`,
      headers: bearer(user.access_token),
    });
    expect(response.json()).toMatchObject({
      Subscriptions: [],
      PremiumEndedAt: last.end_date.toISOString(),
    });
  });

  it("forbids reading another user's profile or logins (403) and requires a token (401)", async () => {
    const me = await signUpByMobile(t);
    const other = await createUser(t.db);
    const profile = await t.app.inject({
      method: 'GET',
      url: `/api/users/${other.id}/profile`,
      headers: bearer(me.access_token),
    });
    expect(profile.statusCode).toBe(403);
    const logins = await t.app.inject({
      method: 'GET',
      url: '/api/users/getlogins',
      query: { id: other.id },
      headers: bearer(me.access_token),
    });
    expect(logins.statusCode).toBe(403);
    expect(
      (await t.app.inject({ method: 'GET', url: `/api/users/${me.sub}/profile`, headers: STORE })).statusCode,
    ).toBe(401);
  });

  it('patches only the signed-in user, with 50-character limits and a valid e-mail', async () => {
    const me = await signUpByMobile(t);
    const other = await createUser(t.db, { first_name: 'Other' });
    const patch = (payload: Record<string, unknown>) =>
      t.app.inject({
        method: 'PATCH',
        url: '/api/users/me/details',
        headers: bearer(me.access_token),
        payload,
      });

    const ok = await patch({
      FirstName: 'Bat',
      LastName: 'Dorj',
      Email: 'Bat@Example.mn',
      PhoneNumber: 'ignored',
      TestUser: true,
    });
    expect(ok.statusCode).toBe(200);
    expect(ok.json()).toMatchObject({
      FirstName: 'Bat',
      LastName: 'Dorj',
      DisplayName: 'Bat Dorj',
      // A new address takes effect only with the code sent to it (email-change.test.ts).
      PrimaryEmail: null,
      PendingEmail: 'bat@example.mn',
      TestUser: false,
    });
    const { code } = await lastMessage(t, 'bat@example.mn');
    const confirmed = await t.app.inject({
      method: 'POST',
      url: '/api/users/me/email/confirm',
      headers: bearer(me.access_token),
      payload: { Otp: code },
    });
    expect(confirmed.json()).toMatchObject({ PrimaryEmail: 'bat@example.mn', PendingEmail: null });

    for (const [payload, field] of [
      [{ FirstName: 'x'.repeat(51) }, 'FirstName'],
      [{ LastName: 'x'.repeat(51) }, 'LastName'],
      [{ Email: 'not-an-email' }, 'Email'],
    ] as const) {
      const response = await patch(payload);
      expect(response.statusCode).toBe(400);
      expect(response.json()).toMatchObject({ field });
    }
    const unchanged = await t.app.inject({
      method: 'GET',
      url: `/api/users/${me.sub}/profile`,
      headers: bearer(me.access_token),
    });
    expect(unchanged.json()).toMatchObject({ FirstName: 'Bat', PrimaryEmail: 'bat@example.mn' });
    const otherRow = await t.db
      .selectFrom('users')
      .select('first_name')
      .where('id', '=', other.id)
      .executeTakeFirstOrThrow();
    expect(otherRow.first_name).toBe('Other');
  });

  it("lists the user's own logins with their own token", async () => {
    const me = await signUpByMobile(t);
    const response = await t.app.inject({
      method: 'GET',
      url: '/api/users/getlogins',
      query: { id: me.sub },
      headers: bearer(me.access_token),
    });
    expect(response.json()).toEqual([
      { Type: 'Msisdn', Value: me.msisdn },
      { Type: 'Username', Value: me.msisdn },
    ]);
  });
});
