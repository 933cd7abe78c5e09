import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runRenewalStep } from '../../src/modules/billing/renewal.js';
import { addMonths } from '../../src/modules/premium/period.js';
import { consoleCall, signedInOperator } from '../helpers/console.js';
import { runDueAt } from '../helpers/dev-clock.js';
import { PLAN_CODES, shopper, withPlans } from '../helpers/factories.js';
import {
  checkout,
  ownSubscriptions,
  PAID_CARD,
  payOnGateway,
  returnToShop,
  startCheckout,
  subscriber,
} from '../helpers/premium.js';
import { createTestApp, type TestApp } from '../helpers/test-app.js';

const DAY = 86_400_000;
let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
  await withPlans(t);
});

/** An admin's call, signed in afresh: the business clock runs months ahead of any session. */
async function asAdmin(method: 'POST' | 'PUT', url: string, payload: unknown) {
  const { cookie } = await signedInOperator(t, 'admin');
  return consoleCall(t, cookie, method, url, payload);
}
afterAll(async () => {
  await t.close();
});

/** Moves the server clock (development contract) and runs what is due. */
const at = (time: number) => runDueAt(t, time);

async function priceMessages(msisdn: string) {
  const response = await t.app.inject({ method: 'GET', url: `/dev/outbox?to=${msisdn}` });
  return (response.json() as { text: string }[])
    .reverse()
    .map((message) => message.text)
    .filter((text) => /price|үнэ/i.test(text));
}

async function setPrice(code: string, price: number) {
  const answer = await asAdmin('POST', `/api/admin/plans/${code}/price`, { price });
  expect(answer.statusCode, answer.body).toBe(200);
  return (answer.json() as { change: { notices: number; takesEffectAt: string } }).change;
}

async function renewalInvoices(subscriptionId: string) {
  return t.db
    .selectFrom('payment_invoices')
    .select(['amount', 'status', 'period_start'])
    .where('subscription_id', '=', subscriptionId)
    .where('kind', '=', 'renewal')
    .orderBy('period_start')
    .execute();
}

async function billing(headers: Record<string, string>) {
  const answer = await t.app.inject({ method: 'GET', url: '/api/users/me/billing', headers });
  expect(answer.statusCode, answer.body).toBe(200);
  return answer.json() as {
    renewal: { amount: number; priceChange: { amount: number; previousAmount: number; from: string } | null };
  };
}

async function planCost(code: string) {
  const plan = await t.db
    .selectFrom('packages')
    .select('cost')
    .where('merchant_code', '=', code)
    .executeTakeFirstOrThrow();
  return plan.cost;
}

describe('a price change with notice', () => {
  it('new sales pay at once; a subscriber is told twice and pays it only from the first renewal 30+ days on', async () => {
    const old = await planCost(PLAN_CODES.premium);
    const { user, headers, period } = await subscriber(t);
    const msisdn = user.phone_number ?? '';
    const firstRenewal = period.end_date.getTime();
    const secondRenewal = addMonths(period.end_date, 1).getTime();
    await at(t.clock.now().getTime() + 5 * DAY);
    const change = await setPrice(PLAN_CODES.premium, old + 1000);
    expect(change.notices).toBeGreaterThanOrEqual(1);

    const buyer = await subscriber(t);
    const bought = await t.db
      .selectFrom('payment_invoices')
      .select('amount')
      .where('invoice_id', '=', buyer.invoiceId)
      .executeTakeFirstOrThrow();
    expect(bought.amount).toBe(old + 1000);

    await at(t.clock.now().getTime() + 60_000);
    const told = await priceMessages(msisdn);
    expect(told).toHaveLength(1);
    expect(told[0]).toContain('changes from');
    const view = await billing(headers);
    expect(view.renewal.amount).toBe(old);
    expect(view.renewal.priceChange).toEqual({
      amount: old + 1000,
      previousAmount: old,
      from: new Date(secondRenewal).toISOString(),
    });

    await at(firstRenewal - 3 * DAY + 60_000);
    await at(firstRenewal + 60_000);
    await at(secondRenewal - 7 * DAY + 60_000);
    const both = await priceMessages(msisdn);
    expect(both).toHaveLength(2);
    expect(both[1]).toMatch(/^Reminder: on .* renews at its new price/);
    await at(secondRenewal - 3 * DAY + 60_000);
    await at(secondRenewal + 60_000);
    expect((await renewalInvoices(period.id)).map((invoice) => [invoice.amount, invoice.status])).toEqual([
      [old, 'paid'],
      [old + 1000, 'paid'],
    ]);
    expect(await priceMessages(msisdn)).toHaveLength(2);
    expect((await billing(headers)).renewal.priceChange).toBeNull();
    // The one who bought at the new price was never told of a change.
    expect(await priceMessages(buyer.user.phone_number ?? '')).toHaveLength(0);
    await setPrice(PLAN_CODES.premium, old);
  });

  it('a change made while a renewal is charged leaves that renewal at the old price', async () => {
    const old = await planCost(PLAN_CODES.family);
    const { period } = await subscriber(t, PLAN_CODES.family);
    await at(period.end_date.getTime() - 3 * DAY + 60_000);
    t.clock.set(period.end_date.getTime() + 60_000);
    const [renewed] = await Promise.all([
      runRenewalStep(t.deps, period.id),
      setPrice(PLAN_CODES.family, old + 5000),
    ]);
    expect(renewed).toBe('renewed');
    const [invoice] = await renewalInvoices(period.id);
    expect(invoice).toMatchObject({ amount: old, status: 'paid' });
    await setPrice(PLAN_CODES.family, old);
  });

  it('a burst of renewals charged while the price changes all keep the old price; each subscriber gets one notice', async () => {
    const old = await planCost(PLAN_CODES.duo);
    const subscribers = [];
    for (let index = 0; index < 12; index++) subscribers.push(await subscriber(t, PLAN_CODES.duo));
    const end = Math.max(...subscribers.map(({ period }) => period.end_date.getTime()));
    await at(end - 3 * DAY + 60_000);
    t.clock.set(end + 60_000);
    const [outcomes] = await Promise.all([
      Promise.all(subscribers.map(({ period }) => runRenewalStep(t.deps, period.id))),
      setPrice(PLAN_CODES.duo, old + 700),
    ]);
    expect(outcomes).toEqual(subscribers.map(() => 'renewed'));
    for (const { period } of subscribers) {
      expect((await renewalInvoices(period.id)).map((invoice) => [invoice.amount, invoice.status])).toEqual([
        [old, 'paid'],
      ]);
    }
    const notices = await t.db
      .selectFrom('price_notices')
      .select((eb) => ['subscription_id', eb.fn.countAll<number>().as('count')])
      .where(
        'subscription_id',
        'in',
        subscribers.map(({ period }) => period.id),
      )
      .groupBy('subscription_id')
      .execute();
    expect(notices.map((row) => Number(row.count))).toEqual(subscribers.map(() => 1));
    await setPrice(PLAN_CODES.duo, old);
  });

  it('a subscriber who changes plan before the new price pays the new plan; one who cancels pays nothing', async () => {
    const familyPrice = await planCost(PLAN_CODES.family);
    const duoPrice = await planCost(PLAN_CODES.duo);
    const mover = await subscriber(t, PLAN_CODES.family);
    const leaver = await subscriber(t, PLAN_CODES.family);
    await setPrice(PLAN_CODES.family, familyPrice + 3000);
    await at(t.clock.now().getTime() + 60_000);
    expect(await priceMessages(mover.user.phone_number ?? '')).toHaveLength(1);

    const moved = await t.app.inject({
      method: 'POST',
      url: `/api/subscriptions/${mover.period.id}/change`,
      headers: mover.headers,
      payload: { MerchantCode: PLAN_CODES.duo },
    });
    expect(moved.statusCode, moved.body).toBe(200);
    expect((await billing(mover.headers)).renewal.priceChange).toBeNull();
    const cancelled = await t.app.inject({
      method: 'POST',
      url: `/api/users/${leaver.user.id}/subscriptions/${leaver.period.id}/cancel`,
      headers: leaver.headers,
    });
    expect([200, 204]).toContain(cancelled.statusCode);

    // Both renewals fall in the notice; jump past the first renewal 30+ days after the change.
    const first = mover.period.end_date.getTime();
    await at(first + 60_000);
    const second = addMonths(mover.period.end_date, 1).getTime();
    await at(second - 7 * DAY + 60_000);
    await at(second + 60_000);
    expect((await renewalInvoices(mover.period.id)).map((invoice) => invoice.amount)).toEqual([
      duoPrice,
      duoPrice,
    ]);
    expect(await renewalInvoices(leaver.period.id)).toEqual([]);
    expect(await priceMessages(mover.user.phone_number ?? '')).toHaveLength(1);
    expect(await priceMessages(leaver.user.phone_number ?? '')).toHaveLength(1);
    await setPrice(PLAN_CODES.family, familyPrice);
  });

  it('a purchase checked out before a rise and paid after it keeps the old price for the notice, and is told', async () => {
    const old = await planCost(PLAN_CODES.premium);
    const buyer = await shopper(t);
    const { gatewayUrl } = await startCheckout(t, buyer.headers, PLAN_CODES.premium);
    t.clock.advance(1000);
    const change = await setPrice(PLAN_CODES.premium, old + 2000);
    await returnToShop(t, await payOnGateway(t, gatewayUrl, PAID_CARD));
    const [period] = await ownSubscriptions(t, buyer.user.id);
    if (!period) throw new Error('the purchase did not activate');
    await at(t.clock.now().getTime() + 60_000);
    expect(await priceMessages(buyer.user.phone_number ?? '')).toEqual([
      expect.stringContaining(`changes from`),
    ]);
    const takesEffect = new Date(change.takesEffectAt).getTime();
    const firstNew =
      period.end_date.getTime() >= takesEffect ? period.end_date : addMonths(period.end_date, 1);
    expect((await billing(buyer.headers)).renewal.priceChange).toEqual({
      amount: old + 2000,
      previousAmount: old,
      from: firstNew.toISOString(),
    });
    await at(period.end_date.getTime() + 60_000);
    const expected = period.end_date.getTime() >= takesEffect ? old + 2000 : old;
    expect((await renewalInvoices(period.id)).map((invoice) => invoice.amount)).toEqual([expected]);
    await setPrice(PLAN_CODES.premium, old);
  });

  it('a lower price reaches everybody at once, with no notice', async () => {
    const old = await planCost(PLAN_CODES.duo);
    const { headers, period } = await subscriber(t, PLAN_CODES.duo);
    const change = await setPrice(PLAN_CODES.duo, old - 900);
    expect(change.notices).toBe(0);
    expect((await billing(headers)).renewal).toMatchObject({ amount: old - 900, priceChange: null });
    await at(period.end_date.getTime() + 60_000);
    expect((await renewalInvoices(period.id)).map((invoice) => invoice.amount)).toEqual([old - 900]);
    const same = await asAdmin('POST', `/api/admin/plans/${PLAN_CODES.duo}/price`, {
      price: old - 900,
    });
    expect(same.statusCode).toBe(409);
    await setPrice(PLAN_CODES.duo, old);
  });

  it('a retired plan still renews for its subscribers, at its price', async () => {
    const old = await planCost(PLAN_CODES.duo);
    const { period, headers } = await subscriber(t, PLAN_CODES.duo);
    const retired = await asAdmin('POST', `/api/admin/plans/${PLAN_CODES.duo}/retire`, {});
    expect(retired.statusCode).toBe(200);
    const buyer = await subscriber(t).catch(() => null);
    expect(buyer).not.toBeNull();
    const refused = await checkout(t, headers, { MerchantCode: PLAN_CODES.duo });
    expect(refused.statusCode).not.toBe(200);
    await at(period.end_date.getTime() + 60_000);
    expect((await renewalInvoices(period.id)).map((invoice) => [invoice.amount, invoice.status])).toEqual([
      [old, 'paid'],
    ]);
    await asAdmin('POST', `/api/admin/plans/${PLAN_CODES.duo}/restore`, {});
  });
});
