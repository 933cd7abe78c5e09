import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { proratedDifference } from '../../src/modules/billing/plan-change-quote.js';
import { addMonths } from '../../src/modules/premium/period.js';
import { createUser, PLAN_CODES, withPlans } from '../helpers/factories.js';
import { ownSubscriptions, PAID_CARD, payOnGateway, returnToShop, subscriber } from '../helpers/premium.js';
import { createTestApp, type TestApp } from '../helpers/test-app.js';

const DAY = 86_400_000;
let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
  await withPlans(t);
});
afterAll(async () => {
  await t.close();
});

const change = (headers: Record<string, string>, subscriptionId: string, MerchantCode: string) =>
  t.app.inject({
    method: 'POST',
    url: `/api/subscriptions/${subscriptionId}/change`,
    headers,
    payload: { MerchantCode },
  });

async function planOf(subscriptionId: string) {
  return t.db
    .selectFrom('subscriptions as s')
    .innerJoin('packages as p', 'p.id', 's.package_id')
    .select(['p.merchant_code', 's.end_date', 's.next_package_id'])
    .where('s.id', '=', subscriptionId)
    .executeTakeFirstOrThrow();
}

describe('an upgrade', () => {
  it('Duo → Family mid-period charges the prorated difference once, however many ask at once', async () => {
    const { headers, period } = await subscriber(t, PLAN_CODES.duo);
    t.clock.set(period.start_date.getTime() + 10 * DAY);
    const answers = await Promise.all(
      Array.from({ length: 8 }, () => change(headers, period.id, PLAN_CODES.family)),
    );
    // Asked at once, each is answered with the one change; one that comes after it is done finds
    // the plan changed already (a loaded machine may let one through that late).
    const changedAlready = { error: 'bad_request', message: 'You are already on this plan.' };
    for (const answer of answers) {
      if (answer.statusCode === 400) expect(answer.json()).toMatchObject(changedAlready);
      else expect(answer.statusCode, answer.body).toBe(200);
    }
    const done = answers.filter((answer) => answer.statusCode === 200);
    const expected = proratedDifference(
      { cost: 9900 },
      { cost: 17900 },
      { start: period.start_date, end: period.end_date },
      t.clock.now(),
    );
    expect(expected).toBeGreaterThan(0);
    expect(expected).toBeLessThan(8000);
    const invoiceIds = new Set(done.map((answer) => answer.json().invoiceId));
    expect(invoiceIds.size).toBe(1);
    expect(done.map((answer) => answer.json())).toContainEqual({
      status: 'changed',
      invoiceId: [...invoiceIds][0],
      amount: expected,
    });
    const charges = await t.db
      .selectFrom('sandbox_gateway_charges')
      .select(['amount', 'status'])
      .where('invoice_id', 'in', [...invoiceIds])
      .execute();
    expect(charges).toEqual([{ amount: expected, status: 'paid' }]);
    expect(await planOf(period.id)).toMatchObject({
      merchant_code: PLAN_CODES.family,
      end_date: period.end_date,
    });

    const history = await t.app.inject({ method: 'GET', url: '/api/users/me/payments', headers });
    expect(history.json()[0]).toMatchObject({ kind: 'change', status: 'paid', amount: expected });
  });

  it('without a saved card sends the shopper to the gateway page for the difference', async () => {
    const { headers, period } = await subscriber(t, PLAN_CODES.premium, PAID_CARD, { saveCard: false });
    const answer = await change(headers, period.id, PLAN_CODES.family);
    expect(answer.statusCode, answer.body).toBe(200);
    const body = answer.json();
    expect(body).toMatchObject({ status: 'payment_required' });
    expect(await planOf(period.id)).toMatchObject({ merchant_code: PLAN_CODES.premium });
    const back = await returnToShop(t, await payOnGateway(t, new URL(body.url), PAID_CARD));
    expect(back).toMatch(/^\/success/);
    expect(await planOf(period.id)).toMatchObject({
      merchant_code: PLAN_CODES.family,
      end_date: period.end_date,
    });
  });
});

describe('a downgrade', () => {
  it('waits for the renewal, tells the members who lose their seat, and renews on the smaller plan', async () => {
    const { user, headers, period } = await subscriber(t, PLAN_CODES.family);
    const members = [];
    for (let i = 0; i < 3; i++) {
      const member = await createUser(t.db);
      t.clock.advance(1000);
      await t.db
        .insertInto('subscription_members')
        .values({ subscription_id: period.id, user_id: member.id, joined_at: t.clock.now() })
        .execute();
      members.push(member);
    }
    const answer = await change(headers, period.id, PLAN_CODES.duo);
    expect(answer.statusCode, answer.body).toBe(200);
    expect(answer.json()).toEqual({ status: 'scheduled', startsAt: period.end_date.toISOString() });
    expect(await planOf(period.id)).toMatchObject({ merchant_code: PLAN_CODES.family });
    const billing = await t.app.inject({ method: 'GET', url: '/api/users/me/billing', headers });
    expect(billing.json().renewal).toMatchObject({
      MerchantCode: PLAN_CODES.duo,
      amount: 9900,
      pendingChange: { MerchantCode: PLAN_CODES.duo, membersLosingSeat: 2 },
    });
    for (const [index, member] of members.entries()) {
      const outbox = await t.app.inject({ method: 'GET', url: `/dev/outbox?to=${member.phone_number}` });
      expect(outbox.json()).toHaveLength(index === 0 ? 0 : 1);
    }

    t.clock.set(period.end_date.getTime() + 60_000);
    await t.app.jobs.runDue();
    expect(await planOf(period.id)).toMatchObject({
      merchant_code: PLAN_CODES.duo,
      end_date: addMonths(period.end_date, 1),
      next_package_id: null,
    });
    const seated = await t.db
      .selectFrom('subscription_members')
      .select('user_id')
      .where('subscription_id', '=', period.id)
      .execute();
    expect(seated.map((row) => row.user_id)).toEqual([members[0]?.id]);
    const [renewal] = (await t.app.inject({ method: 'GET', url: '/api/users/me/payments', headers })).json();
    expect(renewal).toMatchObject({ kind: 'renewal', amount: 9900, status: 'paid' });
    expect((await ownSubscriptions(t, user.id))[0]?.package_id).toBeDefined();
  });
});

describe('cancel, resume and the card on file', () => {
  it('resume turns renewal back on; a removed card renews by link; members may not change the plan', async () => {
    const { user, headers, period } = await subscriber(t, PLAN_CODES.duo);
    const cancel = await t.app.inject({
      method: 'POST',
      url: `/api/users/${user.id}/subscriptions/${period.id}/cancel`,
      headers: { ...headers },
    });
    expect(cancel.statusCode, cancel.body).toBe(200);
    let billing = (await t.app.inject({ method: 'GET', url: '/api/users/me/billing', headers })).json();
    expect(billing.renewal).toMatchObject({ autoRenew: false, nextChargeAt: null });

    const resume = await t.app.inject({
      method: 'POST',
      url: `/api/subscriptions/${period.id}/resume`,
      headers,
    });
    expect(resume.statusCode, resume.body).toBe(200);
    expect(resume.json()).toMatchObject({ IsAutoRenew: true });
    billing = (await t.app.inject({ method: 'GET', url: '/api/users/me/billing', headers })).json();
    expect(billing).toMatchObject({
      card: { brand: 'Visa', last4: '4242' },
      renewal: { autoRenew: true, renewsBy: 'card', nextChargeAt: period.end_date.toISOString() },
    });

    const removed = await t.app.inject({ method: 'DELETE', url: '/api/users/me/card', headers });
    expect(removed.statusCode).toBe(204);
    billing = (await t.app.inject({ method: 'GET', url: '/api/users/me/billing', headers })).json();
    expect(billing).toMatchObject({ card: null, renewal: { renewsBy: 'link' } });

    const member = await createUser(t.db);
    await t.db
      .insertInto('subscription_members')
      .values({ subscription_id: period.id, user_id: member.id })
      .execute();
    const memberHeaders = { StoreId: 'MNCO', ...(await t.authHeader(member.id)) };
    const refused = await change(memberHeaders, period.id, PLAN_CODES.family);
    expect(refused.statusCode).toBe(403);
    const stranger = await createUser(t.db);
    const hidden = await change(
      { StoreId: 'MNCO', ...(await t.authHeader(stranger.id)) },
      period.id,
      PLAN_CODES.family,
    );
    expect(hidden.statusCode).toBe(404);
  });
});
