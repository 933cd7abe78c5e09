import {
  ALREADY_SUBSCRIBED_MESSAGE,
  INVITATION_INVALID_MESSAGE,
  type InvitationCodes,
  type SharedUser,
} from '@tunes/shared/family';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { User } from '../../src/db/schema.js';
import { listUserSubscriptions } from '../../src/modules/subscriptions/queries.js';
import {
  createSubscription,
  createUser,
  DAY_MS,
  duoPackage,
  familyPackage,
  singlePackage,
  siteHeaders,
} from '../helpers/factories.js';
import { createTestApp, type TestApp } from '../helpers/test-app.js';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => {
  await t.close();
});

async function call(method: 'GET' | 'POST' | 'DELETE', url: string, userId?: string) {
  const headers = await siteHeaders(t, userId);
  return t.app.inject({ method, url: `/api${url}`, headers });
}

async function familyOwner(kind: 'family' | 'duo' = 'family', days = 30) {
  const owner = await createUser(t.db);
  const pkg = kind === 'family' ? await familyPackage(t.db) : await duoPackage(t.db);
  const subscription = await createSubscription(t.db, owner.id, pkg, { start: t.clock.now(), days });
  return { owner, subscription };
}

async function codesOf(subscriptionId: string, owner: User): Promise<InvitationCodes> {
  const response = await call('GET', `/subscription/${subscriptionId}/invitation-codes/`, owner.id);
  expect(response.statusCode).toBe(200);
  return response.json();
}

async function newCode(subscriptionId: string, owner: User): Promise<string> {
  const response = await call('POST', `/subscription/${subscriptionId}/invitation-code`, owner.id);
  expect(response.statusCode).toBe(201);
  return response.json().Code;
}

describe('invitation codes of a shared plan', () => {
  it('a new Family plan has no codes and three invitations remaining', async () => {
    const { owner, subscription } = await familyOwner();
    expect(await codesOf(subscription.id, owner)).toEqual({ Codes: [], Remaining: 3 });
  });

  it('each code takes a seat; codes are unguessable and unique; a fourth cannot be created', async () => {
    const { owner, subscription } = await familyOwner();
    const codes = [
      await newCode(subscription.id, owner),
      await newCode(subscription.id, owner),
      await newCode(subscription.id, owner),
    ];
    for (const code of codes) expect(code).toMatch(/^[A-Za-z0-9_-]{22}$/);
    expect(new Set(codes).size).toBe(3);
    const listed = await codesOf(subscription.id, owner);
    expect(listed.Remaining).toBe(0);
    expect([...listed.Codes].sort()).toEqual([...codes].sort());

    const fourth = await call('POST', `/subscription/${subscription.id}/invitation-code`, owner.id);
    expect(fourth.statusCode).toBe(409);
    expect(fourth.json()).toMatchObject({ error: 'no_seats_left' });
  });

  it('a Duo owner can add exactly one member', async () => {
    const { owner, subscription } = await familyOwner('duo');
    expect(await codesOf(subscription.id, owner)).toEqual({ Codes: [], Remaining: 1 });
    const code = await newCode(subscription.id, owner);
    expect(
      (await call('POST', `/subscription/${subscription.id}/invitation-code`, owner.id)).statusCode,
    ).toBe(409);
    const member = await createUser(t.db);
    expect((await call('POST', `/subscription/invitations/${code}`, member.id)).statusCode).toBe(200);
    expect(await codesOf(subscription.id, owner)).toEqual({ Codes: [], Remaining: 0 });
  });

  it('a single-user plan cannot be shared', async () => {
    const owner = await createUser(t.db);
    const subscription = await createSubscription(t.db, owner.id, await singlePackage(t.db), {
      start: t.clock.now(),
    });
    const response = await call('POST', `/subscription/${subscription.id}/invitation-code`, owner.id);
    expect(response.statusCode).toBe(409);
    expect(response.json()).toMatchObject({ error: 'plan_not_shared' });
  });

  it("codes of another owner's plan cannot be listed, created or used to remove", async () => {
    const { owner, subscription } = await familyOwner();
    const code = await newCode(subscription.id, owner);
    const member = await createUser(t.db);
    expect((await call('POST', `/subscription/invitations/${code}`, member.id)).statusCode).toBe(200);
    const stranger = await createUser(t.db);

    const base = `/subscription/${subscription.id}`;
    for (const [method, url] of [
      ['GET', `${base}/invitation-codes/`],
      ['POST', `${base}/invitation-code`],
      ['GET', `${base}/shared-by/`],
      ['DELETE', `${base}/shared-users/${member.id}`],
    ] as const) {
      const asStranger = await call(method, url, stranger.id);
      expect(asStranger.statusCode, `${method} ${url}`).toBe(403);
      expect(asStranger.json()).toMatchObject({ error: 'forbidden' });
      // A member of the plan is not its owner either.
      expect((await call(method, url, member.id)).statusCode, `${method} ${url} as member`).toBe(403);
      expect((await call(method, url)).statusCode, `${method} ${url} signed out`).toBe(401);
    }
    expect(await codesOf(subscription.id, owner)).toEqual({ Codes: [], Remaining: 2 });
    const members = await call('GET', `${base}/shared-by/`, owner.id);
    expect(members.json().map((user: SharedUser) => user.UserId)).toEqual([member.id]);
  });

  it('bad ids are refused with 400 naming the field; unknown plans with 404', async () => {
    const owner = await createUser(t.db);
    const bad = await call('GET', '/subscription/not-a-uuid/invitation-codes/', owner.id);
    expect(bad.statusCode).toBe(400);
    expect(bad.json()).toMatchObject({ field: 'id' });
    const unknown = await call('GET', `/subscription/${crypto.randomUUID()}/invitation-codes/`, owner.id);
    expect(unknown.statusCode).toBe(404);
    const { subscription } = await familyOwner();
    const badUser = await call('DELETE', `/subscription/${subscription.id}/shared-users/nope`, owner.id);
    expect(badUser.statusCode).toBe(400);
    expect(badUser.json()).toMatchObject({ field: 'userId' });
  });
});

describe('accepting an invitation', () => {
  it('a member inherits the plan: it shows in their Subscriptions as member, and in shared-by', async () => {
    const { owner, subscription } = await familyOwner();
    const code = await newCode(subscription.id, owner);
    const member = await createUser(t.db, { first_name: 'Saraa', phone_number: '97688112233' });

    const accepted = await call('POST', `/subscription/invitations/${code}`, member.id);
    expect(accepted.statusCode).toBe(200);
    expect(accepted.json()).toEqual({ SubscriptionId: subscription.id });

    const [held] = await listUserSubscriptions(t.db, member.id, t.clock.now());
    expect(held).toMatchObject({ SubscriptionId: subscription.id, OwnerId: owner.id, Role: 'member' });
    const shared = await call('GET', `/subscription/${subscription.id}/shared-by/`, owner.id);
    expect(shared.json()).toEqual([{ UserId: member.id, FirstName: 'Saraa', Username: '97688112233' }]);
    expect(await codesOf(subscription.id, owner)).toEqual({ Codes: [], Remaining: 2 });
  });

  it('a used code gives the spec message', async () => {
    const { owner, subscription } = await familyOwner();
    const code = await newCode(subscription.id, owner);
    await call('POST', `/subscription/invitations/${code}`, (await createUser(t.db)).id);
    const again = await call('POST', `/subscription/invitations/${code}`, (await createUser(t.db)).id);
    expect(again.statusCode).toBe(404);
    expect(again.json()).toMatchObject({ error: 'invitation_invalid', message: INVITATION_INVALID_MESSAGE });
  });

  it('an unknown or malformed code gives the same message and changes nothing', async () => {
    const user = await createUser(t.db);
    for (const code of ['AAAAAAAAAAAAAAAAAAAAAA', 'x', 'bad%20code']) {
      const response = await call('POST', `/subscription/invitations/${code}`, user.id);
      expect(response.statusCode).toBe(404);
      expect(response.json()).toMatchObject({ message: INVITATION_INVALID_MESSAGE });
    }
    const tooLong = await call('POST', `/subscription/invitations/${'a'.repeat(65)}`, user.id);
    expect(tooLong.statusCode).toBe(400);
    expect(tooLong.json()).toMatchObject({ field: 'code' });
    expect(await listUserSubscriptions(t.db, user.id, t.clock.now())).toEqual([]);
  });

  it('a user with an active subscription of their own is refused with 400 and the spec message', async () => {
    const { owner, subscription } = await familyOwner();
    const code = await newCode(subscription.id, owner);
    const subscriber = await createUser(t.db);
    await createSubscription(t.db, subscriber.id, await singlePackage(t.db), { start: t.clock.now() });

    const response = await call('POST', `/subscription/invitations/${code}`, subscriber.id);
    expect(response.statusCode).toBe(400);
    expect(response.json()).toMatchObject({
      error: 'already_subscribed',
      message: ALREADY_SUBSCRIBED_MESSAGE,
    });
    // The owner cannot join their own plan either; the code stays usable.
    expect((await call('POST', `/subscription/invitations/${code}`, owner.id)).statusCode).toBe(400);
    expect((await codesOf(subscription.id, owner)).Codes).toEqual([code]);
  });

  it('a token of a deleted account is refused with 401 and the code stays usable', async () => {
    const { owner, subscription } = await familyOwner();
    const code = await newCode(subscription.id, owner);
    const gone = await createUser(t.db);
    const headers = await t.authHeader(gone.id);
    await t.db.deleteFrom('users').where('id', '=', gone.id).execute();
    const response = await t.app.inject({
      method: 'POST',
      url: `/api/subscription/invitations/${code}`,
      headers,
    });
    expect(response.statusCode).toBe(401);
    expect((await codesOf(subscription.id, owner)).Codes).toEqual([code]);
  });

  it('a member of one plan cannot join another', async () => {
    const first = await familyOwner();
    const second = await familyOwner();
    const member = await createUser(t.db);
    await call(
      'POST',
      `/subscription/invitations/${await newCode(first.subscription.id, first.owner)}`,
      member.id,
    );
    const response = await call(
      'POST',
      `/subscription/invitations/${await newCode(second.subscription.id, second.owner)}`,
      member.id,
    );
    expect(response.statusCode).toBe(400);
    expect(response.json()).toMatchObject({ error: 'already_subscribed' });
  });

  it('removing a member takes their access away and frees a seat for a new invite', async () => {
    const { owner, subscription } = await familyOwner('duo');
    const member = await createUser(t.db);
    await call('POST', `/subscription/invitations/${await newCode(subscription.id, owner)}`, member.id);
    expect((await codesOf(subscription.id, owner)).Remaining).toBe(0);

    const removed = await call(
      'DELETE',
      `/subscription/${subscription.id}/shared-users/${member.id}`,
      owner.id,
    );
    expect(removed.statusCode).toBe(204);
    expect(await listUserSubscriptions(t.db, member.id, t.clock.now())).toEqual([]);
    expect(await codesOf(subscription.id, owner)).toEqual({ Codes: [], Remaining: 1 });
    const again = await call(
      'DELETE',
      `/subscription/${subscription.id}/shared-users/${member.id}`,
      owner.id,
    );
    expect(again.statusCode).toBe(404);
  });
});

describe('time', () => {
  it('a code expires after 5 days: it stops counting against the seats and cannot be used', async () => {
    const { owner, subscription } = await familyOwner('family', 60);
    const code = await newCode(subscription.id, owner);
    t.clock.advance(5 * DAY_MS - 60_000);
    expect(await codesOf(subscription.id, owner)).toEqual({ Codes: [code], Remaining: 2 });

    t.clock.advance(60_000);
    expect(await codesOf(subscription.id, owner)).toEqual({ Codes: [], Remaining: 3 });
    const late = await call('POST', `/subscription/invitations/${code}`, (await createUser(t.db)).id);
    expect(late.statusCode).toBe(404);
    expect(late.json()).toMatchObject({ message: INVITATION_INVALID_MESSAGE });
  });

  it("members lose the plan when the owner's period ends, and its codes stop working", async () => {
    const { owner, subscription } = await familyOwner('family', 3);
    const member = await createUser(t.db);
    await call('POST', `/subscription/invitations/${await newCode(subscription.id, owner)}`, member.id);
    const pending = await newCode(subscription.id, owner);
    expect(await listUserSubscriptions(t.db, member.id, t.clock.now())).toHaveLength(1);

    t.clock.advance(3 * DAY_MS + 1000);
    expect(await listUserSubscriptions(t.db, member.id, t.clock.now())).toEqual([]);
    const late = await call('POST', `/subscription/invitations/${pending}`, (await createUser(t.db)).id);
    expect(late.statusCode).toBe(404);
    expect(await codesOf(subscription.id, owner)).toEqual({ Codes: [], Remaining: 0 });
    const create = await call('POST', `/subscription/${subscription.id}/invitation-code`, owner.id);
    expect(create.statusCode).toBe(409);
    expect(create.json()).toMatchObject({ error: 'plan_ended' });
    // The former member is free to take a plan of their own or join another.
    const other = await familyOwner();
    const joined = await call(
      'POST',
      `/subscription/invitations/${await newCode(other.subscription.id, other.owner)}`,
      member.id,
    );
    expect(joined.statusCode).toBe(200);
  });
});
