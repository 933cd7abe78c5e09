import type { ConsolePlan } from '@tunes/shared/catalog';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CatalogRefused, demoCatalog } from '../../src/modules/catalog/catalog-file.js';
import { importCatalog } from '../../src/modules/catalog/catalog-import.js';
import { auditEntries, consoleCall, signedInOperator } from '../helpers/console.js';
import { DAY_MS, PLAN_CODES, shopper, withPlans } from '../helpers/factories.js';
import { FAILS_LATER_CARD, PAID_CARD, returnToShop, saveCardOnGateway } from '../helpers/premium.js';
import { createTestApp, type TestApp } from '../helpers/test-app.js';
import { at, billing, cancelRenewal, payLinkByQpay, startTrial } from './trial-helpers.js';

let t: TestApp;
let admin: string;
beforeAll(async () => {
  t = await createTestApp();
  await withPlans(t);
  admin = (await signedInOperator(t, 'admin')).cookie;
});
afterAll(async () => {
  await t.close();
});

/** The dashboard's trials, read by an admin signed in now (a session ends while the clock runs a month). */
async function dashboardTrials() {
  const { cookie } = await signedInOperator(t, 'admin');
  const answer = await consoleCall(t, cookie, 'GET', '/api/admin/dashboard?days=365');
  expect(answer.statusCode, answer.body).toBe(200);
  return (answer.json() as { trials: { started: number; converted: number; cancelled: number } }).trials;
}

async function planTrial(code: string) {
  const answer = await consoleCall(t, admin, 'GET', '/api/admin/plans');
  expect(answer.statusCode, answer.body).toBe(200);
  return (answer.json() as { plans: ConsolePlan[] }).plans.find((plan) => plan.code === code)?.trialDays;
}

describe("a plan's trial in the console and the catalog file", () => {
  it('an admin sets and clears a plan’s free days, audited; /premium and the trial call show them', async () => {
    expect(await planTrial(PLAN_CODES.duo)).toBe(0);
    const set = await consoleCall(t, admin, 'PUT', `/api/admin/plans/${PLAN_CODES.duo}/trial`, {
      trialDays: 14,
    });
    expect(set.statusCode, set.body).toBe(200);
    expect(await planTrial(PLAN_CODES.duo)).toBe(14);
    const [entry] = await auditEntries(t, admin, 'plan.trial');
    expect(entry).toMatchObject({
      targetId: PLAN_CODES.duo,
      before: { trialDays: 0 },
      after: { trialDays: 14 },
    });

    t.clock.advance(60_000);
    const plans = await t.app.inject({ method: 'GET', url: '/api/packages/allplans?merchantId=14' });
    expect(
      (plans.json() as { MerchantCode: string; TrialDays: number }[]).find(
        (plan) => plan.MerchantCode === PLAN_CODES.duo,
      )?.TrialDays,
    ).toBe(14);
    const { headers } = await shopper(t);
    const offer = await t.app.inject({ method: 'GET', url: '/api/premium/trial', headers });
    expect(offer.json()).toMatchObject({
      eligible: true,
      plans: [
        { MerchantCode: PLAN_CODES.premium, TrialDays: 30 },
        { MerchantCode: PLAN_CODES.duo, TrialDays: 14 },
      ],
    });

    const tooLong = await consoleCall(t, admin, 'PUT', `/api/admin/plans/${PLAN_CODES.duo}/trial`, {
      trialDays: 91,
    });
    expect(tooLong.statusCode).toBe(400);
    const cleared = await consoleCall(t, admin, 'PUT', `/api/admin/plans/${PLAN_CODES.duo}/trial`, {
      trialDays: 0,
    });
    expect(cleared.statusCode, cleared.body).toBe(200);
    expect(await planTrial(PLAN_CODES.duo)).toBe(0);
  });

  it('a plan created with free days has them', async () => {
    const created = await consoleCall(t, admin, 'POST', '/api/admin/plans', {
      code: 'TRIAL_ANNUAL',
      offer: 'premium-annual',
      nameEn: 'Premium for a year',
      nameMn: 'Жилийн Премиум',
      descriptionEn: '',
      descriptionMn: '',
      price: 69000,
      months: 12,
      seats: 1,
      trialDays: 7,
    });
    expect(created.statusCode, created.body).toBe(201);
    expect(await planTrial('TRIAL_ANNUAL')).toBe(7);
  });

  it('the catalog file sets free days and refuses more than 90, naming the entry', async () => {
    const catalog = demoCatalog() as { plans: Record<string, unknown>[] };
    const bad = {
      ...catalog,
      plans: catalog.plans.map((plan, index) => (index === 1 ? { ...plan, trialDays: 91 } : plan)),
    };
    const refused = await importCatalog(t.deps, bad).then(
      () => null,
      (error: unknown) => error,
    );
    expect(refused).toBeInstanceOf(CatalogRefused);
    expect(String((refused as Error).message)).toContain('plans[1].trialDays');
    expect(await planTrial(PLAN_CODES.premium)).toBe(30);
  });
});

describe('the dashboard', () => {
  it('counts trials started, converted (first renewal paid) and cancelled', async () => {
    const before = await dashboardTrials();
    expect(before).toEqual({ started: 0, converted: 0, cancelled: 0 });

    const byLink = await shopper(t);
    const { startedUntil } = await startTrial(t, byLink.headers, PLAN_CODES.premium, 'qpay');
    const end = new Date(startedUntil ?? '').getTime();
    const byCard = await shopper(t);
    const page = await startTrial(t, byCard.headers, PLAN_CODES.premium, 'card');
    await returnToShop(t, await saveCardOnGateway(t, new URL(page.url ?? ''), PAID_CARD, '05/35'));
    const cancelled = await shopper(t);
    const other = await startTrial(t, cancelled.headers, PLAN_CODES.premium, 'card');
    await returnToShop(t, await saveCardOnGateway(t, new URL(other.url ?? ''), FAILS_LATER_CARD, '05/35'));
    const view = await billing(t, cancelled.headers);
    await cancelRenewal(t, cancelled.headers, cancelled.user.id, view.renewal?.subscriptionId ?? '');
    expect(await dashboardTrials()).toEqual({ started: 3, converted: 0, cancelled: 1 });

    await at(t, end - 3 * DAY_MS + 60_000);
    const [invoice] = await t.db
      .selectFrom('payment_invoices')
      .select('invoice_id')
      .where('user_id', '=', byLink.user.id)
      .where('kind', '=', 'renewal')
      .execute();
    await payLinkByQpay(t, byLink.headers, invoice?.invoice_id ?? '');
    expect(await dashboardTrials()).toEqual({ started: 3, converted: 1, cancelled: 1 });
    await at(t, end + 60 * 60_000);
    expect(await dashboardTrials()).toEqual({ started: 3, converted: 2, cancelled: 1 });
  }, 60_000);
});
