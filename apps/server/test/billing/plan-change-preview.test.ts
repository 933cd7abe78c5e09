import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { proratedDifference } from '../../src/modules/billing/plan-change-quote.js';
import { createUser, PLAN_CODES, siteHeaders, withPlans } from '../helpers/factories.js';
import { subscriber } from '../helpers/premium.js';
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

const preview = (headers: Record<string, string>, subscriptionId: string, plan: string) =>
  t.app.inject({
    method: 'GET',
    url: `/api/subscriptions/${subscriptionId}/plan-change/preview?plan=${encodeURIComponent(plan)}`,
    headers,
  });
const change = (headers: Record<string, string>, subscriptionId: string, MerchantCode: string) =>
  t.app.inject({
    method: 'POST',
    url: `/api/subscriptions/${subscriptionId}/change`,
    headers,
    payload: { MerchantCode },
  });

async function invoiceCount(subscriptionId: string) {
  const rows = await t.db
    .selectFrom('payment_invoices')
    .select('invoice_id')
    .where('subscription_id', '=', subscriptionId)
    .where('kind', '=', 'change')
    .execute();
  return rows.length;
}

describe('the plan-change preview', () => {
  it('shows the exact amount an upgrade then charges, and changes nothing', async () => {
    const { headers, period } = await subscriber(t, PLAN_CODES.duo);
    t.clock.set(period.start_date.getTime() + 10 * DAY);
    const shown = await preview(headers, period.id, PLAN_CODES.family);
    expect(shown.statusCode, shown.body).toBe(200);
    const expected = proratedDifference(
      { cost: 9900 },
      { cost: 17900 },
      { start: period.start_date, end: period.end_date },
      t.clock.now(),
    );
    expect(shown.json()).toEqual({
      kind: 'upgrade',
      amount: expected,
      currency: 'MNT',
      startsAt: t.clock.now().toISOString(),
    });
    expect(await invoiceCount(period.id)).toBe(0);

    const changed = await change(headers, period.id, PLAN_CODES.family);
    expect(changed.statusCode, changed.body).toBe(200);
    expect(changed.json()).toMatchObject({ status: 'changed', amount: shown.json().amount });
  });

  it('a downgrade charges nothing now and starts at the renewal', async () => {
    const { headers, period } = await subscriber(t, PLAN_CODES.family);
    const shown = await preview(headers, period.id, PLAN_CODES.duo);
    expect(shown.statusCode, shown.body).toBe(200);
    expect(shown.json()).toEqual({
      kind: 'downgrade',
      amount: 0,
      currency: 'MNT',
      startsAt: period.end_date.toISOString(),
    });
    const scheduled = await change(headers, period.id, PLAN_CODES.duo);
    expect(scheduled.json()).toEqual({ status: 'scheduled', startsAt: shown.json().startsAt });
  });

  it('refuses what the change refuses: the current plan, an unknown plan, someone else', async () => {
    const { headers, period } = await subscriber(t, PLAN_CODES.duo);
    expect((await preview(headers, period.id, PLAN_CODES.duo)).statusCode).toBe(400);
    expect((await preview(headers, period.id, 'NO_SUCH_PLAN')).statusCode).toBe(400);
    const stranger = await siteHeaders(t, (await createUser(t.db)).id);
    expect((await preview(stranger, period.id, PLAN_CODES.family)).statusCode).toBe(404);
    expect((await preview(headers, period.id, '')).statusCode).toBe(400);
  });
});
