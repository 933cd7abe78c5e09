import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runRenewalStep } from '../../src/modules/billing/renewal.js';
import { PLAN_CODES, withPlans } from '../helpers/factories.js';
import { subscriber } from '../helpers/premium.js';
import { createTestApp, type TestApp } from '../helpers/test-app.js';

/** Hundreds at once against the billing state changes: each still happens once. */
let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
  await withPlans(t);
});
afterAll(async () => {
  await t.close();
});

describe('bursts', () => {
  it('200 renewal steps of one due subscription at once charge it once and renew it once', async () => {
    const { period } = await subscriber(t);
    t.clock.set(period.end_date.getTime() + 60_000);
    const deps = t.deps;
    const outcomes = await Promise.all(Array.from({ length: 200 }, () => runRenewalStep(deps, period.id)));
    expect(outcomes.filter((outcome) => outcome === 'renewed')).toHaveLength(1);
    const invoices = await t.db
      .selectFrom('payment_invoices')
      .select(['invoice_id', 'status'])
      .where('subscription_id', '=', period.id)
      .where('kind', '=', 'renewal')
      .execute();
    expect(invoices).toHaveLength(1);
    expect(invoices[0]?.status).toBe('paid');
    const charges = await t.db
      .selectFrom('sandbox_gateway_charges')
      .select('status')
      .where('invoice_id', '=', invoices[0]?.invoice_id ?? '')
      .execute();
    expect(charges).toEqual([{ status: 'paid' }]);
  }, 120_000);

  it('200 upgrade requests at once make one invoice and one charge; the rest are answered or limited', async () => {
    const { headers, period } = await subscriber(t, PLAN_CODES.duo);
    t.clock.set(period.start_date.getTime() + 5 * 86_400_000);
    const answers = await Promise.all(
      Array.from({ length: 200 }, () =>
        t.app.inject({
          method: 'POST',
          url: `/api/subscriptions/${period.id}/change`,
          headers,
          payload: { MerchantCode: PLAN_CODES.family },
        }),
      ),
    );
    for (const answer of answers) expect([200, 429]).toContain(answer.statusCode);
    const invoices = await t.db
      .selectFrom('payment_invoices')
      .select('invoice_id')
      .where('subscription_id', '=', period.id)
      .where('kind', '=', 'change')
      .execute();
    expect(invoices).toHaveLength(1);
    const charges = await t.db
      .selectFrom('sandbox_gateway_charges')
      .select('status')
      .where('invoice_id', '=', invoices[0]?.invoice_id ?? '')
      .execute();
    expect(charges).toEqual([{ status: 'paid' }]);
  }, 120_000);
});
