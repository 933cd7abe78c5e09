import { INVITATION_SEND_LIMITS } from '@tunes/shared/invitation-send';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSubscription, createUser, familyPackage, randomMsisdn } from '../helpers/factories.js';
import { createTestApp, type TestApp } from '../helpers/test-app.js';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => {
  await t.close();
});

interface Sent {
  channel: string;
  to: string;
  text: string;
  link: string | null;
}

const outbox = async (to: string) =>
  (await t.app.inject({ method: 'GET', url: '/dev/outbox', query: { to } })).json() as Sent[];

async function familyPlanWithCode(language: 'en' | 'mn' = 'en', firstName = 'Saraa') {
  const owner = await createUser(t.db, { first_name: firstName, language });
  const subscription = await createSubscription(t.db, owner.id, await familyPackage(t.db), {
    start: t.clock.now(),
  });
  const created = await t.app.inject({
    method: 'POST',
    url: `/api/subscription/${subscription.id}/invitation-code`,
    headers: await t.authHeader(owner.id),
  });
  const { Code } = created.json() as { Code: string };
  return { owner, subscription, code: Code };
}

async function send(subscriptionId: string, code: string, userId: string, To: unknown) {
  return t.app.inject({
    method: 'POST',
    url: `/api/subscription/${subscriptionId}/invitation-codes/${code}/send`,
    headers: await t.authHeader(userId),
    payload: { To },
  });
}

describe('an owner sends an invitation link by SMS or e-mail', () => {
  it('a Mongolian number gets the link by SMS in the owner’s language, with its last day', async () => {
    const { owner, subscription, code } = await familyPlanWithCode('mn', 'Сараа');
    const msisdn = randomMsisdn();
    const response = await send(subscription.id, code, owner.id, `${msisdn.slice(3, 7)} ${msisdn.slice(7)}`);
    expect(response.statusCode, response.body).toBe(202);
    expect(response.json().Channel).toBe('sms');
    const [message] = await outbox(msisdn);
    expect(message?.channel).toBe('sms');
    expect(message?.link).toBe(`${t.config.PUBLIC_URL}/invite?code=${code}`);
    expect(message?.text).toContain('Сараа таныг');
    expect(message?.text).toMatch(/\d{4} оны \d{1,2}-р сарын \d{1,2} хүртэл хүчинтэй/);
  });

  it('an e-mail address gets it by e-mail in English for an English-speaking owner', async () => {
    const { owner, subscription, code } = await familyPlanWithCode('en', 'Saraa');
    const email = `Invitee-${Date.now()}@Example.mn`;
    const response = await send(subscription.id, code, owner.id, email);
    expect(response.statusCode, response.body).toBe(202);
    const [message] = await outbox(email.toLowerCase());
    expect(message?.channel).toBe('email');
    expect(message?.text).toMatch(
      /^Saraa invited you to share their Tunes Premium plan\. Sign in and accept by \w+ \d{1,2}, \d{4}:/,
    );
  });

  it('refuses what is neither a number nor an address, a withdrawn code and another user', async () => {
    const { owner, subscription, code } = await familyPlanWithCode();
    for (const bad of ['12', 'not an address', '+1 555', 'a@b', 'x'.repeat(300), 42]) {
      const response = await send(subscription.id, code, owner.id, bad);
      expect(response.statusCode, String(bad)).toBe(400);
    }
    const stranger = await createUser(t.db);
    expect((await send(subscription.id, code, stranger.id, randomMsisdn().slice(3))).statusCode).toBe(403);
    const withdrawn = await t.app.inject({
      method: 'DELETE',
      url: `/api/subscription/${subscription.id}/invitation-codes/${code}`,
      headers: await t.authHeader(owner.id),
    });
    expect(withdrawn.statusCode).toBe(204);
    expect((await send(subscription.id, code, owner.id, randomMsisdn().slice(3))).statusCode).toBe(404);
  });

  it('one number receives at most its daily share of invitations', async () => {
    const to = randomMsisdn();
    let sent = 0;
    for (let i = 0; i < INVITATION_SEND_LIMITS.perRecipientPerDay + 2; i++) {
      const { owner, subscription, code } = await familyPlanWithCode();
      const response = await send(subscription.id, code, owner.id, `+${to}`);
      if (response.statusCode === 202) sent += 1;
      else expect(response.statusCode).toBe(429);
    }
    expect(sent).toBe(INVITATION_SEND_LIMITS.perRecipientPerDay);
    expect(await outbox(to)).toHaveLength(INVITATION_SEND_LIMITS.perRecipientPerDay);
  });

  it('a burst of 200 concurrent sends from one owner sends at most the hourly limit', async () => {
    const { owner, subscription, code } = await familyPlanWithCode();
    const recipients = Array.from({ length: 200 }, () => randomMsisdn());
    const responses = await Promise.all(
      recipients.map((to) => send(subscription.id, code, owner.id, to.slice(3))),
    );
    const accepted = responses.filter((response) => response.statusCode === 202);
    expect(accepted).toHaveLength(INVITATION_SEND_LIMITS.perOwnerPerHour);
    expect(responses.every((response) => [202, 429].includes(response.statusCode))).toBe(true);
    const delivered = await t.db
      .selectFrom('outbox_messages')
      .select((eb) => eb.fn.countAll<string>().as('count'))
      .where('recipient', 'in', recipients)
      .executeTakeFirstOrThrow();
    expect(Number(delivered.count)).toBe(INVITATION_SEND_LIMITS.perOwnerPerHour);
  });
});
