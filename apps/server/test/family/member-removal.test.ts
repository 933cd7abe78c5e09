import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSubscription, createUser, familyPackage } from '../helpers/factories.js';
import { createTestApp, type TestApp } from '../helpers/test-app.js';

/**
 * Issue 37: a member the owner removes is told, and their profile says their Premium ended
 * (not that they never had it); a member who leaves reads the same on their profile.
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

async function familyWithMember(language = 'en') {
  const owner = await createUser(t.db, { first_name: 'Bolor' });
  const subscription = await createSubscription(t.db, owner.id, await familyPackage(t.db), {
    start: t.clock.now(),
    autoRenew: true,
  });
  const member = await createUser(t.db, { first_name: 'Saraa', language });
  const code = (await call('POST', `/subscription/${subscription.id}/invitation-code`, owner.id)).json().Code;
  expect((await call('POST', `/subscription/invitations/${code}`, member.id)).statusCode).toBe(200);
  return { owner, subscription, member };
}

const profileOf = async (userId: string) =>
  (await call('GET', `/users/${userId}/profile`, userId)).json() as {
    Subscriptions: unknown[];
    PremiumEndedAt: string | null;
  };

const messagesTo = async (to: string) =>
  (await t.app.inject({ method: 'GET', url: '/dev/outbox', query: { to } })).json() as {
    text: string;
    link: string | null;
  }[];

describe('a member taken off a plan', () => {
  it('removed by the owner: told, with the way to Premium of their own; the profile says Premium ended today', async () => {
    const { owner, subscription, member } = await familyWithMember();
    expect((await profileOf(member.id)).Subscriptions).toHaveLength(1);
    const removed = await call(
      'DELETE',
      `/subscription/${subscription.id}/shared-users/${member.id}`,
      owner.id,
    );
    expect(removed.statusCode, removed.body).toBeLessThan(300);

    const [told] = await messagesTo(member.phone_number ?? '');
    expect(told?.text).toBe(
      `Bolor removed you from their shared Tunes plan, so your Premium has ended. Get Premium of your own: ${t.deps.config.PUBLIC_URL}/premium`,
    );
    expect(told?.link).toBe(`${t.deps.config.PUBLIC_URL}/premium`);
    const profile = await profileOf(member.id);
    expect(profile.Subscriptions).toEqual([]);
    expect(profile.PremiumEndedAt).toBe(t.clock.now().toISOString());
    // Removing again finds no member and tells nobody twice.
    expect(
      (await call('DELETE', `/subscription/${subscription.id}/shared-users/${member.id}`, owner.id))
        .statusCode,
    ).toBe(404);
    expect(await messagesTo(member.phone_number ?? '')).toHaveLength(1);
  });

  it('in Mongolian, the message is in the member’s language', async () => {
    const { owner, subscription, member } = await familyWithMember('mn');
    await call('DELETE', `/subscription/${subscription.id}/shared-users/${member.id}`, owner.id);
    const [told] = await messagesTo(member.phone_number ?? '');
    expect(told?.text).toMatch(
      /^Bolor таныг хуваалцсан Tunes багцаасаа хаслаа, тиймээс таны Премиум эрх дууслаа\./,
    );
  });

  it('a member who leaves: the profile says Premium ended, not "not yet"', async () => {
    const { subscription, member } = await familyWithMember();
    expect((await call('POST', `/subscription/${subscription.id}/leave`, member.id)).statusCode).toBeLessThan(
      300,
    );
    expect((await profileOf(member.id)).PremiumEndedAt).toBe(t.clock.now().toISOString());
  });
});
