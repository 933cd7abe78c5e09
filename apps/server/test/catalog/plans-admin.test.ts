import type { ConsolePlan } from '@tunes/shared/catalog';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auditEntries, consoleCall, signedInOperator } from '../helpers/console.js';
import { createUser, PLAN_CODES, shopper, withPlans } from '../helpers/factories.js';
import { checkout } from '../helpers/premium.js';
import { createTestApp, type TestApp } from '../helpers/test-app.js';

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

const MINUTE = 60_000;

const newPlan = (code: string, overrides: Record<string, unknown> = {}) => ({
  code,
  offer: 'premium-annual',
  nameEn: 'Premium for a year',
  nameMn: 'Жилийн Премиум',
  descriptionEn: 'Twelve months of Premium.',
  descriptionMn: 'Арван хоёр сарын Премиум.',
  price: 69000,
  months: 12,
  seats: 1,
  ...overrides,
});

async function plans(): Promise<ConsolePlan[]> {
  const answer = await consoleCall(t, admin, 'GET', '/api/admin/plans');
  expect(answer.statusCode, answer.body).toBe(200);
  return (answer.json() as { plans: ConsolePlan[] }).plans;
}

/** What /premium reads, a minute on (each process re-reads the plans at the turn of a minute). */
async function plansOnSale() {
  t.clock.advance(MINUTE);
  const answer = await t.app.inject({ method: 'GET', url: '/api/packages/allplans?merchantId=14' });
  expect(answer.statusCode, answer.body).toBe(200);
  return answer.json() as { MerchantCode: string; Badge?: { Language: string; Value: string }[] | null }[];
}

describe('plans in the console', () => {
  it('an admin creates a plan in English and Mongolian; it is sold, last in the order, and audited', async () => {
    const created = await consoleCall(
      t,
      admin,
      'POST',
      '/api/admin/plans',
      newPlan('PREMIUM_FAMILY_12M', {
        offer: 'premium-family-annual',
        seats: 6,
      }),
    );
    expect(created.statusCode, created.body).toBe(201);
    const list = (created.json() as { plans: ConsolePlan[] }).plans;
    const plan = list.at(-1);
    expect(plan).toMatchObject({
      code: 'PREMIUM_FAMILY_12M',
      name: { en: 'Premium for a year', mn: 'Жилийн Премиум' },
      price: 69000,
      currency: 'MNT',
      months: 12,
      seats: 6,
      onSale: true,
      // /premium lists only the spec's one-month premium, duo and family offers.
      listed: false,
    });
    expect(list.map((entry) => entry.order)).toEqual(list.map((_, index) => index + 1));
    expect((await plansOnSale()).map((entry) => entry.MerchantCode)).toContain('PREMIUM_FAMILY_12M');
    const [entry] = await auditEntries(t, admin, 'plan.create');
    expect(entry).toMatchObject({ targetId: 'PREMIUM_FAMILY_12M', after: { seats: 6, months: 12 } });
  });

  it('refuses bad plans naming the field, and a code already in use', async () => {
    const cases: [Record<string, unknown>, string][] = [
      [{ price: 0 }, 'price'],
      [{ price: 12.5 }, 'price'],
      [{ months: 3 }, 'months'],
      [{ seats: 7 }, 'seats'],
      [{ nameMn: '  ' }, 'nameMn'],
      [{ code: 'lower case' }, 'code'],
      // The spec's kinds as /premium sells them: one month; Family up to four.
      [{ offer: 'premium-family', months: 1, seats: 5 }, 'seats'],
      [{ offer: 'premium', months: 12 }, 'months'],
    ];
    for (const [change, field] of cases) {
      const answer = await consoleCall(t, admin, 'POST', '/api/admin/plans', newPlan('BAD_PLAN', change));
      expect(answer.statusCode, JSON.stringify(change)).toBe(400);
      expect(answer.json()).toMatchObject({ field });
    }
    const taken = await consoleCall(t, admin, 'POST', '/api/admin/plans', newPlan(PLAN_CODES.duo));
    expect(taken.statusCode).toBe(409);
    expect(taken.json()).toMatchObject({ error: 'plan_exists' });
    expect((await plans()).map((plan) => plan.code)).not.toContain('BAD_PLAN');
  });

  it('only an admin may see or change plans; a listener token is refused', async () => {
    const support = (await signedInOperator(t, 'support')).cookie;
    const content = (await signedInOperator(t, 'content')).cookie;
    for (const cookie of [support, content]) {
      expect((await consoleCall(t, cookie, 'GET', '/api/admin/plans')).statusCode).toBe(403);
      const made = await consoleCall(t, cookie, 'POST', '/api/admin/plans', newPlan('NOT_MINE'));
      expect(made.statusCode).toBe(403);
      const priced = await consoleCall(t, cookie, 'POST', `/api/admin/plans/${PLAN_CODES.duo}/price`, {
        price: 1,
      });
      expect(priced.statusCode).toBe(403);
    }
    const listener = await createUser(t.db);
    const withToken = await t.app.inject({
      method: 'GET',
      url: '/api/admin/plans',
      headers: await t.authHeader(listener.id),
    });
    expect(withToken.statusCode).toBe(403);
    expect((await t.app.inject({ method: 'GET', url: '/api/admin/plans' })).statusCode).toBe(401);
    expect((await plans()).map((plan) => plan.code)).not.toContain('NOT_MINE');
  });

  it('a retired plan is not sold, its subscribers keep it, and it can go back on sale', async () => {
    const retired = await consoleCall(t, admin, 'POST', `/api/admin/plans/${PLAN_CODES.duo}/retire`, {});
    expect(retired.statusCode, retired.body).toBe(200);
    expect((await plans()).find((plan) => plan.code === PLAN_CODES.duo)).toMatchObject({
      onSale: false,
      listed: false,
    });
    expect((await plansOnSale()).map((plan) => plan.MerchantCode)).not.toContain(PLAN_CODES.duo);
    const buyer = await shopper(t);
    const refused = await checkout(t, buyer.headers, { MerchantCode: PLAN_CODES.duo });
    expect(refused.statusCode).toBe(400);
    expect(refused.json()).toMatchObject({ field: 'MerchantCode' });
    const [entry] = await auditEntries(t, admin, 'plan.retire');
    expect(entry).toMatchObject({
      targetId: PLAN_CODES.duo,
      before: { onSale: true },
      after: { onSale: false },
    });

    const restored = await consoleCall(t, admin, 'POST', `/api/admin/plans/${PLAN_CODES.duo}/restore`, {});
    expect(restored.statusCode).toBe(200);
    expect((await plansOnSale()).map((plan) => plan.MerchantCode)).toContain(PLAN_CODES.duo);
  });

  it('reorders and badges plans as /premium shows them; a stale list is refused', async () => {
    const codes = (await plans()).map((plan) => plan.code);
    const reversed = [...codes].reverse();
    const ordered = await consoleCall(t, admin, 'PUT', '/api/admin/plans/order', { codes: reversed });
    expect(ordered.statusCode, ordered.body).toBe(200);
    expect((await plans()).map((plan) => plan.code)).toEqual(reversed);
    const onSale = (await plansOnSale()).map((plan) => plan.MerchantCode);
    expect(onSale).toEqual(reversed.filter((code) => onSale.includes(code)));

    const stale = await consoleCall(t, admin, 'PUT', '/api/admin/plans/order', { codes: reversed.slice(1) });
    expect(stale.statusCode).toBe(409);
    expect(stale.json()).toMatchObject({ error: 'plans_changed' });

    const badged = await consoleCall(t, admin, 'PUT', `/api/admin/plans/${PLAN_CODES.family}/badge`, {
      badge: { en: 'Best value', mn: 'Хамгийн ашигтай' },
    });
    expect(badged.statusCode, badged.body).toBe(200);
    const family = (await plansOnSale()).find((plan) => plan.MerchantCode === PLAN_CODES.family);
    expect(family?.Badge).toEqual([
      { Language: 'en', Value: 'Best value' },
      { Language: 'mn', Value: 'Хамгийн ашигтай' },
    ]);
    const halfBadge = await consoleCall(t, admin, 'PUT', `/api/admin/plans/${PLAN_CODES.family}/badge`, {
      badge: { en: 'Only English', mn: '' },
    });
    expect(halfBadge.statusCode).toBe(400);
    expect((await auditEntries(t, admin, 'plan.reorder')).length).toBe(1);
    expect((await auditEntries(t, admin, 'plan.badge')).length).toBe(1);
  });

  it('creates and reorders at once keep one consistent order', async () => {
    const made = await Promise.all(
      Array.from({ length: 12 }, (_, index) =>
        consoleCall(t, admin, 'POST', '/api/admin/plans', newPlan(`BURST_${index}`)),
      ),
    );
    expect(made.map((answer) => answer.statusCode)).toEqual(made.map(() => 201));
    const twice = await Promise.all(
      Array.from({ length: 6 }, () =>
        consoleCall(t, admin, 'POST', '/api/admin/plans', newPlan('BURST_SAME')),
      ),
    );
    expect(twice.map((answer) => answer.statusCode).sort()).toEqual([201, 409, 409, 409, 409, 409]);

    const codes = (await plans()).map((plan) => plan.code);
    const orders = Array.from({ length: 8 }, (_, round) =>
      [...codes].sort(
        (a, b) =>
          ((a.charCodeAt(round % a.length) * (round + 1)) % 7) -
            ((b.charCodeAt(round % b.length) * (round + 1)) % 7) || a.localeCompare(b),
      ),
    );
    const answers = await Promise.all(
      orders.map((order) => consoleCall(t, admin, 'PUT', '/api/admin/plans/order', { codes: order })),
    );
    expect(answers.map((answer) => answer.statusCode)).toEqual(answers.map(() => 200));
    const final = await plans();
    // One of the lists whole, never a mix; the places are 1..n, each once.
    expect(orders).toContainEqual(final.map((plan) => plan.code));
    expect(final.map((plan) => plan.order)).toEqual(final.map((_, index) => index + 1));
  });
});
