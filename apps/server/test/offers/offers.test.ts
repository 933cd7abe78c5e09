import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hashPassword } from '../../src/modules/accounts/secrets.js';
import { auditEntries, consoleCall, signedInOperator } from '../helpers/console.js';
import { PLAN_CODES, shopper, withPlans } from '../helpers/factories.js';
import { checkout, payOnGateway, returnToShop, subscriber } from '../helpers/premium.js';
import { createTestApp, type TestApp, testDatabaseKind } from '../helpers/test-app.js';
import { lookUp, makeOffer, uniqueCode } from './offer-helpers.js';

/** Offers (issue 38): the console, the public look-up, checkout's refusals, and a burst at the limit. */
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

const offerOf = async (code: string) =>
  t.db.selectFrom('offers').selectAll().where('code', '=', code).executeTakeFirstOrThrow();

describe('offers in the console', () => {
  it('an admin creates, lists and ends an offer, each change audited; other roles are refused', async () => {
    const code = uniqueCode('SPRING');
    const offer = await makeOffer(t, admin, {
      code: code.toLowerCase(),
      kind: 'amount',
      value: 2000,
      plans: [PLAN_CODES.premium],
      maxRedemptions: 50,
    });
    expect(offer).toMatchObject({
      code,
      kind: 'amount',
      value: 2000,
      plans: [PLAN_CODES.premium],
      maxRedemptions: 50,
      redeemed: 0,
      endedAt: null,
    });
    const list = await consoleCall(t, admin, 'GET', '/api/admin/offers');
    expect(list.statusCode).toBe(200);
    expect((list.json() as { offers: { code: string }[] }).offers.map((o) => o.code)).toContain(code);

    const again = await consoleCall(t, admin, 'POST', '/api/admin/offers', {
      code,
      kind: 'percent',
      value: 10,
      periods: 1,
      audience: 'any',
      maxRedemptions: 1,
      endsAt: new Date(t.clock.now().getTime() + 86_400_000).toISOString(),
    });
    expect(again.statusCode).toBe(409);
    expect(again.json()).toMatchObject({ error: 'offer_code_taken' });

    const ended = await consoleCall(t, admin, 'POST', `/api/admin/offers/${offer.id}/end`, {});
    expect(ended.statusCode, ended.body).toBe(200);
    expect(ended.json()).toMatchObject({ code, endedAt: expect.any(String) });

    const [created] = await auditEntries(t, admin, 'offer.create');
    expect(created).toMatchObject({ targetId: offer.id, targetName: code, after: { code } });
    const [end] = await auditEntries(t, admin, 'offer.end');
    expect(end).toMatchObject({ targetId: offer.id, before: { endedAt: null } });

    for (const role of ['support', 'content'] as const) {
      const { cookie } = await signedInOperator(t, role);
      expect((await consoleCall(t, cookie, 'GET', '/api/admin/offers')).statusCode).toBe(403);
      const made = await consoleCall(t, cookie, 'POST', '/api/admin/offers', { code: uniqueCode('NOPE') });
      expect(made.statusCode).toBe(403);
      expect((await consoleCall(t, cookie, 'POST', `/api/admin/offers/${offer.id}/end`, {})).statusCode).toBe(
        403,
      );
    }
  });

  it('refuses bad terms naming the field', async () => {
    const base = {
      code: uniqueCode('BAD'),
      kind: 'percent',
      value: 20,
      periods: 2,
      audience: 'new',
      maxRedemptions: 10,
      endsAt: new Date(t.clock.now().getTime() + 86_400_000).toISOString(),
    };
    for (const [change, field] of [
      [{ value: 100 }, 'value'],
      [{ periods: 13 }, 'periods'],
      [{ maxRedemptions: 0 }, 'maxRedemptions'],
      [{ code: 'a b' }, 'code'],
      [{ audience: 'everyone' }, 'audience'],
      [{ endsAt: new Date(t.clock.now().getTime() - 1000).toISOString() }, 'endsAt'],
      [{ plans: ['NO_SUCH_PLAN'] }, 'plans'],
    ] as const) {
      const answer = await consoleCall(t, admin, 'POST', '/api/admin/offers', { ...base, ...change });
      expect(answer.statusCode, JSON.stringify(change)).toBe(400);
      expect(JSON.stringify(answer.json())).toContain(field);
    }
  });
});

describe('the public look-up', () => {
  it('answers the terms and discounted prices, case-insensitively, and eligibility for a listener', async () => {
    const code = uniqueCode('NEWBIE');
    await makeOffer(t, admin, { code, audience: 'new', value: 30, plans: [PLAN_CODES.premium] });
    const anyone = await lookUp(t, code.toLowerCase());
    expect(anyone.statusCode, anyone.body).toBe(200);
    expect(anyone.json()).toMatchObject({
      code,
      kind: 'percent',
      value: 30,
      periods: 3,
      audience: 'new',
      prices: [{ MerchantCode: PLAN_CODES.premium, Cost: 6900, DiscountedCost: 4830 }],
      eligible: true,
    });
    const newcomer = await shopper(t);
    expect((await lookUp(t, code, newcomer.headers)).json()).toMatchObject({ eligible: true });
    const old = await subscriber(t);
    expect((await lookUp(t, code, old.headers)).json()).toMatchObject({ eligible: false, reason: 'not_new' });
  });

  it('answers 404 for an unknown code, 410 once ended, 409 once fully redeemed', async () => {
    expect((await lookUp(t, 'NO-SUCH-CODE')).json()).toMatchObject({ error: 'offer_not_found' });
    expect((await lookUp(t, 'NO-SUCH-CODE')).statusCode).toBe(404);

    const ended = await makeOffer(t, admin, { code: uniqueCode('ENDED') });
    await consoleCall(t, admin, 'POST', `/api/admin/offers/${ended.id}/end`, {});
    const gone = await lookUp(t, ended.code);
    expect(gone.statusCode).toBe(410);
    expect(gone.json()).toMatchObject({ error: 'offer_ended', message: 'This offer has ended.' });

    const one = await makeOffer(t, admin, { code: uniqueCode('ONLYONE'), maxRedemptions: 1 });
    const first = await shopper(t);
    expect(
      (await checkout(t, first.headers, { MerchantCode: PLAN_CODES.premium, OfferCode: one.code }))
        .statusCode,
    ).toBe(200);
    const full = await lookUp(t, one.code);
    expect(full.statusCode).toBe(409);
    expect(full.json()).toMatchObject({ error: 'offer_exhausted' });
  });

  it('a burst of 400 look-ups from one address answers 300 and refuses the rest; another address still looks up', async () => {
    const { code } = await makeOffer(t, admin, { code: uniqueCode('WALK') });
    const from = (remoteAddress: string, tried: string) =>
      t.app.inject({ method: 'GET', url: `/api/offers/${tried}`, remoteAddress });
    // Right and wrong codes count alike: a walker learns nothing from which ones are refused.
    const answers = await Promise.all(
      Array.from({ length: 400 }, (_, i) => from('203.0.113.77', i % 2 ? code : `WALK-${i}`)),
    );
    const refused = answers.filter((answer) => answer.statusCode === 429);
    expect(refused).toHaveLength(100);
    expect(refused[0]?.json()).toMatchObject({
      message: 'Too many offer codes were looked up. Try again later.',
    });
    expect(answers.filter((answer) => [200, 404].includes(answer.statusCode))).toHaveLength(300);
    expect((await from('203.0.113.78', code)).statusCode).toBe(200);
  });
});

describe('checkout with an offer', () => {
  it('charges the discounted price at the gateway and makes it the subscription’s offer', async () => {
    const code = uniqueCode('HALF');
    await makeOffer(t, admin, { code, value: 50 });
    const buyer = await shopper(t);
    const started = await checkout(t, buyer.headers, { MerchantCode: PLAN_CODES.premium, OfferCode: code });
    expect(started.statusCode, started.body).toBe(200);
    const { url, invoiceId } = started.json() as { url: string; invoiceId: string };
    const invoice = await t.db
      .selectFrom('payment_invoices')
      .select(['amount', 'discount'])
      .where('invoice_id', '=', invoiceId)
      .executeTakeFirstOrThrow();
    expect(invoice).toEqual({ amount: 3450, discount: 3450 });
    // The gateway's page asks for the discounted amount.
    const page = await t.app.inject({ method: 'GET', url: new URL(url).pathname + new URL(url).search });
    expect(page.body).toContain('3,450 ₮');
    await returnToShop(t, await payOnGateway(t, new URL(url), '4242 4242 4242 4242'));
    const billing = await t.app.inject({
      method: 'GET',
      url: '/api/users/me/billing',
      headers: buyer.headers,
    });
    expect(billing.json()).toMatchObject({
      offer: { code, kind: 'percent', value: 50, periodsLeft: 2, nextAmount: 3450 },
      renewal: { amount: 3450 },
    });
    // The receipt shows the plan's price, the discount and what was paid (decision 0044).
    const receipt = await t.app.inject({
      method: 'GET',
      url: `/api/users/me/receipts/${encodeURIComponent(invoiceId)}`,
      headers: buyer.headers,
    });
    expect(receipt.statusCode, receipt.body).toBe(200);
    expect(receipt.json()).toMatchObject({ amount: 3450, discount: 3450, vat: 314 });
  });

  it('refuses an offer not for the listener, a second redemption, and ended or unknown codes', async () => {
    const newOnly = await makeOffer(t, admin, { code: uniqueCode('FIRST'), audience: 'new' });
    const returningOnly = await makeOffer(t, admin, { code: uniqueCode('BACK'), audience: 'returning' });
    const old = await subscriber(t);
    // The old subscriber's period runs: they are neither new nor (while subscribed) able to buy.
    await t.db
      .updateTable('subscriptions')
      .set({ end_date: new Date(t.clock.now().getTime() - 1000), next_billing_at: null })
      .where('owner_id', '=', old.user.id)
      .execute();
    const refused = await checkout(t, old.headers, {
      MerchantCode: PLAN_CODES.premium,
      OfferCode: newOnly.code,
    });
    expect(refused.statusCode).toBe(409);
    expect(refused.json()).toMatchObject({
      error: 'offer_not_for_you',
      message: 'This offer is not available for your account.',
      field: 'OfferCode',
    });
    const newcomer = await shopper(t);
    const notReturning = await checkout(t, newcomer.headers, {
      MerchantCode: PLAN_CODES.premium,
      OfferCode: returningOnly.code,
    });
    expect(notReturning.json()).toMatchObject({ error: 'offer_not_for_you' });
    expect(
      (await checkout(t, old.headers, { MerchantCode: PLAN_CODES.premium, OfferCode: returningOnly.code }))
        .statusCode,
    ).toBe(200);
    // One redemption per account: a second checkout while the first is open is refused.
    const twice = await checkout(t, old.headers, {
      MerchantCode: PLAN_CODES.premium,
      OfferCode: returningOnly.code,
    });
    expect(twice.statusCode).toBe(409);
    expect(twice.json()).toMatchObject({ error: 'offer_not_for_you' });

    const unknown = await checkout(t, newcomer.headers, {
      MerchantCode: PLAN_CODES.premium,
      OfferCode: 'NOPE-NOPE',
    });
    expect(unknown.statusCode).toBe(400);
    expect(unknown.json()).toMatchObject({ error: 'offer_not_found', field: 'OfferCode' });
    await consoleCall(t, admin, 'POST', `/api/admin/offers/${newOnly.id}/end`, {});
    const ended = await checkout(t, newcomer.headers, {
      MerchantCode: PLAN_CODES.premium,
      OfferCode: newOnly.code,
    });
    expect(ended.statusCode).toBe(410);
    expect(ended.json()).toMatchObject({ error: 'offer_ended', field: 'OfferCode' });
  });

  it('gives a place back when its invoice expires unpaid', async () => {
    const one = await makeOffer(t, admin, { code: uniqueCode('SOLO'), maxRedemptions: 1 });
    const first = await shopper(t);
    expect(
      (await checkout(t, first.headers, { MerchantCode: PLAN_CODES.premium, OfferCode: one.code }))
        .statusCode,
    ).toBe(200);
    const second = await shopper(t);
    const full = await checkout(t, second.headers, { MerchantCode: PLAN_CODES.premium, OfferCode: one.code });
    expect(full.statusCode).toBe(409);
    expect(full.json()).toMatchObject({ error: 'offer_exhausted', field: 'OfferCode' });
    // A day and more later the periodic check expires the unpaid invoice: the place is free.
    const moved = await t.app.inject({
      method: 'POST',
      url: '/dev/clock',
      payload: { advanceSeconds: 25 * 3600 },
    });
    expect(moved.statusCode, moved.body).toBe(200);
    expect((await t.app.inject({ method: 'POST', url: '/dev/jobs/run-due' })).statusCode).toBe(200);
    // The console's session did not outlive the day.
    admin = (await signedInOperator(t, 'admin')).cookie;
    expect(await offerOf(one.code)).toMatchObject({ redeemed: 0 });
    expect(
      (await checkout(t, second.headers, { MerchantCode: PLAN_CODES.premium, OfferCode: one.code }))
        .statusCode,
    ).toBe(200);
  });

  it('gives a place back when the account is deleted with its checkout open', async () => {
    const one = await makeOffer(t, admin, { code: uniqueCode('GONE'), maxRedemptions: 1 });
    const leaving = await shopper(t);
    const password = 'a long enough password';
    await t.db
      .updateTable('users')
      .set({ password_hash: await hashPassword(password) })
      .where('id', '=', leaving.user.id)
      .execute();
    const body = { MerchantCode: PLAN_CODES.premium, OfferCode: one.code };
    expect((await checkout(t, leaving.headers, body)).statusCode).toBe(200);
    expect(await offerOf(one.code)).toMatchObject({ redeemed: 1 });
    const removed = await t.app.inject({
      method: 'DELETE',
      url: '/api/users/me',
      headers: leaving.headers,
      payload: { Password: password },
    });
    expect(removed.statusCode, removed.body).toBe(204);
    expect(await offerOf(one.code)).toMatchObject({ redeemed: 0 });
    expect((await checkout(t, (await shopper(t)).headers, body)).statusCode).toBe(200);
  });

  it('a burst of 300 checkouts with one code limited to 10 reserves exactly 10', async () => {
    // PostgreSQL runs them on its pool's connections at once; PGlite has one connection, so there
    // the requests interleave between statements but no two statements run at the same instant.
    const limited = await makeOffer(t, admin, { code: uniqueCode('BURST'), maxRedemptions: 10 });
    const buyers = [];
    for (let i = 0; i < 300; i += 50) {
      buyers.push(...(await Promise.all(Array.from({ length: 50 }, () => shopper(t)))));
    }
    const answers = await Promise.all(
      buyers.map((buyer) =>
        checkout(t, buyer.headers, {
          MerchantCode: PLAN_CODES.premium,
          OfferCode: limited.code.toLowerCase(),
        }),
      ),
    );
    const statuses = answers.map((answer) => answer.statusCode);
    expect(statuses.filter((status) => status === 200)).toHaveLength(10);
    expect(statuses.filter((status) => status === 409)).toHaveLength(290);
    expect(
      answers.filter((a) => a.statusCode === 409).every((a) => a.json().error === 'offer_exhausted'),
    ).toBe(true);
    expect(await offerOf(limited.code)).toMatchObject({ redeemed: 10 });
    const held = await t.db
      .selectFrom('offer_redemptions as r')
      .innerJoin('payment_invoices as i', 'i.offer_redemption_id', 'r.id')
      .select(['r.status', 'i.amount'])
      .where('r.offer_id', '=', limited.id)
      .execute();
    expect(held).toHaveLength(10);
    expect(held.every((row) => row.status === 'reserved' && row.amount === 3450)).toBe(true);
    expect(testDatabaseKind).toMatch(/pglite|postgres/);
  }, 240_000);
});
