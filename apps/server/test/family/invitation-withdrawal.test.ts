import { INVITATION_ERRORS } from '@tunes/shared/family';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSubscription, createUser, familyPackage, siteHeaders } from '../helpers/factories.js';
import { createTestApp, type TestApp } from '../helpers/test-app.js';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => {
  await t.close();
});

async function call(method: 'GET' | 'POST' | 'DELETE', url: string, userId?: string) {
  return t.app.inject({ method, url: `/api${url}`, headers: await siteHeaders(t, userId) });
}

async function familyPlanWithCode() {
  const owner = await createUser(t.db);
  const subscription = await createSubscription(t.db, owner.id, await familyPackage(t.db), {
    start: t.clock.now(),
  });
  const created = await call('POST', `/subscription/${subscription.id}/invitation-code`, owner.id);
  expect(created.statusCode).toBe(201);
  return { owner, subscription, code: created.json().Code as string };
}

const withdraw = (subscriptionId: string, code: string, userId: string) =>
  call('DELETE', `/subscription/${subscriptionId}/invitation-codes/${code}`, userId);
const accept = (code: string, userId: string) => call('POST', `/subscription/invitations/${code}`, userId);

async function memberCount(subscriptionId: string) {
  const rows = await t.db
    .selectFrom('subscription_members')
    .select('user_id')
    .where('subscription_id', '=', subscriptionId)
    .execute();
  return rows.length;
}

describe('withdrawing an unused invitation', () => {
  it('the owner withdraws a link: it is no longer listed, its seat is free, and accepting it is invalid', async () => {
    const { owner, subscription, code } = await familyPlanWithCode();
    const answer = await withdraw(subscription.id, code, owner.id);
    expect(answer.statusCode).toBe(204);

    const listed = await call('GET', `/subscription/${subscription.id}/invitation-codes/`, owner.id);
    expect(listed.json()).toEqual({ Codes: [], Remaining: 3 });

    const joined = await accept(code, (await createUser(t.db)).id);
    expect(joined.statusCode).toBe(404);
    expect(joined.json()).toMatchObject({ error: INVITATION_ERRORS.invalid });
  });

  it('anyone but the owner, and a used or unknown code, get the same 404', async () => {
    const { owner, subscription, code } = await familyPlanWithCode();
    const stranger = await createUser(t.db);
    const byStranger = await withdraw(subscription.id, code, stranger.id);
    const unknown = await withdraw(subscription.id, 'A'.repeat(22), owner.id);
    expect(byStranger.statusCode).toBe(404);
    expect(unknown.statusCode).toBe(404);
    expect(byStranger.json()).toEqual(unknown.json());

    const member = await createUser(t.db);
    expect((await accept(code, member.id)).statusCode).toBe(200);
    const used = await withdraw(subscription.id, code, owner.id);
    expect(used.statusCode).toBe(404);
    expect(used.json()).toEqual(unknown.json());
    expect(await memberCount(subscription.id)).toBe(1);
  });

  it('a second withdrawal of one code finds nothing', async () => {
    const { owner, subscription, code } = await familyPlanWithCode();
    const answers = await Promise.all(
      Array.from({ length: 5 }, () => withdraw(subscription.id, code, owner.id)),
    );
    expect(answers.map((a) => a.statusCode).sort()).toEqual([204, 404, 404, 404, 404]);
  });

  it('withdrawals and accepts of one code at once: either accepted or withdrawn, never both', async () => {
    for (let round = 0; round < 10; round++) {
      const { owner, subscription, code } = await familyPlanWithCode();
      const people = await Promise.all(Array.from({ length: 4 }, () => createUser(t.db)));
      const answers = await Promise.all([
        withdraw(subscription.id, code, owner.id),
        ...people.map((person) => accept(code, person.id)),
        withdraw(subscription.id, code, owner.id),
      ]);
      const withdrawals = [answers[0], answers[answers.length - 1]];
      const accepts = answers.slice(1, -1);
      const withdrawn = withdrawals.filter((a) => a?.statusCode === 204).length;
      const accepted = accepts.filter((a) => a?.statusCode === 200).length;
      expect(
        answers.every((a) => a && (a.statusCode === 200 || a.statusCode === 204 || a.statusCode === 404)),
      ).toBe(true);
      expect(withdrawn + accepted).toBe(1);
      expect(await memberCount(subscription.id)).toBe(accepted);
      const listed = await call('GET', `/subscription/${subscription.id}/invitation-codes/`, owner.id);
      expect(listed.json()).toEqual({ Codes: [], Remaining: 3 - accepted });
    }
  });
});
