import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newInvitationCode } from '../../src/modules/family/invitation-codes.js';
import { lastMessage } from '../helpers/accounts.js';
import { createSubscription, createUser, DAY_MS, duoPackage, familyPackage } from '../helpers/factories.js';
import { createTestApp, type TestApp } from '../helpers/test-app.js';

/**
 * product.md §14: a member leaves a Duo or Family plan; the seat is free at once and the owner is
 * told. A leave is a change of the plan's seats and keeps the seat limit (seat-limit.ts).
 */
let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => {
  await t.close();
});

async function call(method: 'GET' | 'POST' | 'DELETE', url: string, userId: string) {
  return t.app.inject({ method, url: `/api${url}`, headers: await t.authHeader(userId) });
}

async function plan(pkg = familyPackage(t.db)) {
  const owner = await createUser(t.db, { first_name: 'Bolor' });
  const subscription = await createSubscription(t.db, owner.id, await pkg, {
    start: t.clock.now(),
    autoRenew: true,
  });
  return { owner, subscription };
}

/** A new user who joins the plan through a code the owner creates. */
async function join(subscriptionId: string, ownerId: string, firstName = 'Saraa') {
  const member = await createUser(t.db, { first_name: firstName });
  const code = (await call('POST', `/subscription/${subscriptionId}/invitation-code`, ownerId)).json().Code;
  const accepted = await call('POST', `/subscription/invitations/${code}`, member.id);
  expect(accepted.statusCode).toBe(200);
  return member;
}

async function memberCount(subscriptionId: string) {
  const { count } = await t.db
    .selectFrom('subscription_members')
    .select((eb) => eb.fn.countAll<string>().as('count'))
    .where('subscription_id', '=', subscriptionId)
    .executeTakeFirstOrThrow();
  return Number(count);
}

async function messagesTo(to: string) {
  const answer = await t.app.inject({ method: 'GET', url: '/dev/outbox', query: { to } });
  return answer.json() as { text: string }[];
}

describe('leaving a plan as a member', () => {
  it('frees the seat at once and tells the owner', async () => {
    const { owner, subscription } = await plan();
    const member = await join(subscription.id, owner.id);
    const codesBefore = (
      await call('GET', `/subscription/${subscription.id}/invitation-codes/`, owner.id)
    ).json();
    expect(codesBefore.Remaining).toBe(2);

    const left = await call('POST', `/subscription/${subscription.id}/leave`, member.id);
    expect(left.statusCode).toBe(204);
    expect(await memberCount(subscription.id)).toBe(0);
    const codesAfter = (
      await call('GET', `/subscription/${subscription.id}/invitation-codes/`, owner.id)
    ).json();
    expect(codesAfter.Remaining).toBe(3);
    expect((await lastMessage(t, owner.phone_number ?? '')).text).toBe(
      'Saraa left your shared Tunes plan. Their seat is free again: you can invite someone else from your profile.',
    );

    // The former member holds no plan now, so a voucher or another invitation is theirs to use.
    const profile = (await call('GET', `/users/${member.id}/profile`, member.id)).json();
    expect(profile.Subscriptions).toEqual([]);
  });

  it("a member's profile names their role on a plan they do not pay for", async () => {
    const { owner, subscription } = await plan(duoPackage(t.db));
    const member = await join(subscription.id, owner.id);
    const [view] = (await call('GET', `/users/${member.id}/profile`, member.id)).json().Subscriptions;
    expect(view).toMatchObject({ Role: 'member', OwnerId: owner.id, SubscriptionId: subscription.id });
  });

  it('the owner cannot leave their own plan (409) and a stranger is not on it (404)', async () => {
    const { owner, subscription } = await plan();
    const ownerLeaves = await call('POST', `/subscription/${subscription.id}/leave`, owner.id);
    expect(ownerLeaves.statusCode).toBe(409);
    expect(ownerLeaves.json()).toMatchObject({ error: 'owner_cannot_leave' });
    const stranger = await createUser(t.db);
    expect((await call('POST', `/subscription/${subscription.id}/leave`, stranger.id)).statusCode).toBe(404);
    const nowhere = await call(
      'POST',
      '/subscription/00000000-0000-4000-8000-000000000000/leave',
      stranger.id,
    );
    expect(nowhere.statusCode).toBe(404);
    expect((await call('POST', '/subscription/not-an-id/leave', stranger.id)).statusCode).toBe(400);
    expect(
      (await t.app.inject({ method: 'POST', url: `/api/subscription/${subscription.id}/leave` })).statusCode,
    ).toBe(401);
  });

  it('20 leaves at once by one member: one leaves, and the owner is told once', async () => {
    const { owner, subscription } = await plan();
    const member = await join(subscription.id, owner.id, 'Tuya');
    const answers = await Promise.all(
      Array.from({ length: 20 }, () => call('POST', `/subscription/${subscription.id}/leave`, member.id)),
    );
    expect(answers.filter((answer) => answer.statusCode === 204)).toHaveLength(1);
    expect(answers.filter((answer) => answer.statusCode === 404)).toHaveLength(19);
    const told = (await messagesTo(owner.phone_number ?? '')).filter((m) => m.text.startsWith('Tuya left'));
    expect(told).toHaveLength(1);
  });

  it('leaves, accepts, new codes and removals at once never exceed the seats', async () => {
    const { owner, subscription } = await plan();
    const members = [
      await join(subscription.id, owner.id, 'One'),
      await join(subscription.id, owner.id, 'Two'),
      await join(subscription.id, owner.id, 'Three'),
    ];
    // Codes written past the API, so accepts can race the leaves for the freed seats.
    const now = t.clock.now();
    const codes = Array.from({ length: 20 }, () => newInvitationCode());
    await t.db
      .insertInto('invitation_codes')
      .values(
        codes.map((code) => ({
          code,
          subscription_id: subscription.id,
          created_at: now,
          expires_at: new Date(now.getTime() + 5 * DAY_MS),
        })),
      )
      .execute();
    const people = await Promise.all(codes.map(() => createUser(t.db)));

    const [leaves, accepts, creations, removal] = await Promise.all([
      Promise.all(members.map((m) => call('POST', `/subscription/${subscription.id}/leave`, m.id))),
      Promise.all(people.map((p, i) => call('POST', `/subscription/invitations/${codes[i]}`, p.id))),
      Promise.all(
        Array.from({ length: 5 }, () =>
          call('POST', `/subscription/${subscription.id}/invitation-code`, owner.id),
        ),
      ),
      call('DELETE', `/subscription/${subscription.id}/shared-users/${members[0]?.id}`, owner.id),
    ]);
    const all = [...leaves, ...accepts, ...creations, removal];
    expect(all.every((answer) => answer.statusCode < 500)).toBe(true);

    // The first member left or was removed, exactly once; the other two left.
    expect([leaves[0]?.statusCode, removal.statusCode].sort()).toEqual([204, 404]);
    expect(leaves.slice(1).map((answer) => answer.statusCode)).toEqual([204, 204]);
    const joined = accepts.filter((answer) => answer.statusCode === 200).length;
    expect(await memberCount(subscription.id)).toBe(joined);
    expect(joined).toBeLessThanOrEqual(3);
    // With 20 codes live, no new one could be made.
    expect(creations.every((answer) => answer.statusCode === 409)).toBe(true);
  });
});
