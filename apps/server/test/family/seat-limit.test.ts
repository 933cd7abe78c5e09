import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newInvitationCode } from '../../src/modules/family/invitation-codes.js';
import { createSubscription, createUser, DAY_MS, familyPackage } from '../helpers/factories.js';
import { createTestApp, type TestApp } from '../helpers/test-app.js';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => {
  await t.close();
});

async function familyPlan() {
  const owner = await createUser(t.db);
  const subscription = await createSubscription(t.db, owner.id, await familyPackage(t.db), {
    start: t.clock.now(),
  });
  return { owner, subscription };
}

async function post(url: string, userId: string) {
  return t.app.inject({ method: 'POST', url: `/api${url}`, headers: await t.authHeader(userId) });
}

async function memberCount(subscriptionId: string) {
  const { count } = await t.db
    .selectFrom('subscription_members')
    .select((eb) => eb.fn.countAll<string>().as('count'))
    .where('subscription_id', '=', subscriptionId)
    .executeTakeFirstOrThrow();
  return Number(count);
}

const users = (n: number) => Promise.all(Array.from({ length: n }, () => createUser(t.db)));

describe('seats are never oversold', () => {
  it('50 concurrent accepts of the 3 codes of a plan with 3 free seats → exactly 3 members', async () => {
    const { owner, subscription } = await familyPlan();
    const codes: string[] = [];
    for (let i = 0; i < 3; i++) {
      codes.push((await post(`/subscription/${subscription.id}/invitation-code`, owner.id)).json().Code);
    }
    const people = await users(50);
    const responses = await Promise.all(
      people.map((person, i) => post(`/subscription/invitations/${codes[i % 3]}`, person.id)),
    );
    expect(responses.filter((r) => r.statusCode === 200)).toHaveLength(3);
    expect(responses.filter((r) => r.statusCode === 404)).toHaveLength(47);
    expect(await memberCount(subscription.id)).toBe(3);
  });

  it('50 concurrent accepts of 50 distinct codes for 3 free seats → exactly 3 members', async () => {
    const { subscription } = await familyPlan();
    // Codes written past the API (as a buggy or racing writer might): the accept still holds the line.
    const now = t.clock.now();
    const codes = Array.from({ length: 50 }, () => newInvitationCode());
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
    const people = await users(50);
    const responses = await Promise.all(
      people.map((person, i) => post(`/subscription/invitations/${codes[i]}`, person.id)),
    );
    expect(responses.filter((r) => r.statusCode === 200)).toHaveLength(3);
    expect(responses.every((r) => r.statusCode === 200 || r.statusCode === 404)).toBe(true);
    expect(await memberCount(subscription.id)).toBe(3);
  });

  it('creations, accepts and removals at once never exceed the seats', async () => {
    const { owner, subscription } = await familyPlan();
    const auth = await t.authHeader(owner.id);
    const create = () => post(`/subscription/${subscription.id}/invitation-code`, owner.id);
    const first = await users(1);
    await post(`/subscription/invitations/${(await create()).json().Code}`, first[0]?.id ?? '');
    const codes = [(await create()).json().Code, (await create()).json().Code];
    const people = await users(20);

    const responses = await Promise.all([
      ...Array.from({ length: 10 }, create),
      ...people.map((person, i) => post(`/subscription/invitations/${codes[i % 2]}`, person.id)),
      t.app.inject({
        method: 'DELETE',
        url: `/api/subscription/${subscription.id}/shared-users/${first[0]?.id}`,
        headers: auth,
      }),
    ]);
    expect(responses.every((r) => r.statusCode < 500)).toBe(true);

    const listed = await t.app.inject({
      method: 'GET',
      url: `/api/subscription/${subscription.id}/invitation-codes/`,
      headers: auth,
    });
    const { Codes, Remaining } = listed.json();
    const members = await memberCount(subscription.id);
    expect(members).toBe(2);
    expect(members + Codes.length + Remaining).toBe(3);
    // Exactly one seat was freed by the removal, so exactly one of the ten creations succeeded.
    expect(responses.slice(0, 10).filter((r) => r.statusCode === 201)).toHaveLength(1);
  });
});
