import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addMonths } from '../../src/modules/premium/period.js';
import { lapseUnpaidRenewals } from '../../src/modules/premium/settlement.js';
import { createUser, PLAN_CODES, STORE, shopper, siteHeaders, withPlans } from '../helpers/factories.js';
import {
  DECLINED_CARD,
  openGatewayPage,
  ownSubscriptions,
  PAID_CARD,
  paymentLog,
  payOnGateway,
  postGatewayForm,
  returnToShop,
  startCheckout,
} from '../helpers/premium.js';
import { createTestApp, type TestApp } from '../helpers/test-app.js';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
  await withPlans(t);
});
afterAll(async () => {
  await t.close();
});

async function subscriptionsOf(userId: string, query: Record<string, string> = { IsFutureActive: 'false' }) {
  const response = await t.app.inject({
    method: 'GET',
    url: `/api/users/${userId}/subscriptions/`,
    query,
    headers: await siteHeaders(t, userId),
  });
  expect(response.statusCode, response.body).toBe(200);
  return response.json() as {
    SubscriptionId: string;
    StartDate: string;
    EndDate: string;
    IsAutoRenew: boolean;
    PackageCost: { Name: { Value: string }[]; AllowShare: boolean; MaxSharedUsers: number };
    Source: { SourceType: string };
    Role: string;
  }[];
}

describe('buying a plan with the sandbox test cards', () => {
  it.each([
    [PLAN_CODES.premium, 'Premium', false, 0],
    [PLAN_CODES.duo, 'Premium Duo', true, 1],
    [PLAN_CODES.family, 'Premium Family', true, 3],
  ])('the paid card activates %s for one month with auto-renew on', async (code, name, allowShare, seats) => {
    const { user, headers } = await shopper(t);
    const { gatewayUrl, invoiceId } = await startCheckout(t, headers, code);
    const paidAt = t.clock.now();
    const back = await payOnGateway(t, gatewayUrl, PAID_CARD);
    expect(back.pathname).toBe('/api/payments/return');
    expect(await returnToShop(t, back)).toBe(`/success?invoiceId=${encodeURIComponent(invoiceId)}`);

    const [subscription] = await subscriptionsOf(user.id);
    expect(subscription).toMatchObject({
      IsAutoRenew: true,
      PackageCost: { AllowShare: allowShare, MaxSharedUsers: seats },
      Source: { SourceType: 'Web' },
      Role: 'owner',
    });
    expect(subscription?.PackageCost.Name[0]?.Value).toBe(name);
    expect(new Date(subscription?.StartDate ?? 0).getTime()).toBe(paidAt.getTime());
    expect(subscription?.EndDate).toBe(addMonths(paidAt, 1).toISOString());

    const steps = (await paymentLog(t, invoiceId)).map((row) => `${row.current_process}:${row.message}`);
    expect(steps[0]).toBe('checkout:created');
    expect(steps).toContain('callback:provider status: paid');
    expect(steps.filter((step) => step.startsWith('activation:'))).toHaveLength(1);
  });

  it('the declined card and Cancel send the shopper to /failed with nothing activated', async () => {
    for (const card of [DECLINED_CARD, 'cancel'] as const) {
      const { user, headers } = await shopper(t);
      const { gatewayUrl, invoiceId } = await startCheckout(t, headers, PLAN_CODES.premium);
      const back = await payOnGateway(t, gatewayUrl, card);
      expect(await returnToShop(t, back)).toBe(`/failed?invoiceId=${encodeURIComponent(invoiceId)}`);
      expect(await ownSubscriptions(t, user.id)).toEqual([]);
      const invoice = await t.db
        .selectFrom('payment_invoices')
        .select('status')
        .where('invoice_id', '=', invoiceId)
        .executeTakeFirstOrThrow();
      expect(invoice.status).toBe(card === 'cancel' ? 'cancelled' : 'declined');
    }
  });

  it('the card page asks again for a card that is not a test card, an old expiry or a missing CVC', async () => {
    const { headers } = await shopper(t);
    const { gatewayUrl } = await startCheckout(t, headers, PLAN_CODES.premium);
    const { token, formKey } = await openGatewayPage(t, gatewayUrl);
    for (const [fields, message] of [
      [{ card_number: '5555 5555 5555 4444', expiry: '12/39', cvc: '123' }, 'only its test cards'],
      [{ card_number: PAID_CARD, expiry: '01/20', cvc: '123' }, 'expired'],
      [{ card_number: PAID_CARD, expiry: '12/39', cvc: '' }, 'CVC'],
    ] as const) {
      const response = await postGatewayForm(t, 'pay', { token, form_key: formKey, ...fields });
      expect(response.statusCode).toBe(400);
      expect(response.body).toContain(message);
      expect(response.body).toContain('Card number');
    }
    const forged = await postGatewayForm(t, 'pay', { token, form_key: 'forged', card_number: PAID_CARD });
    expect(forged.statusCode).toBe(400);
  });

  it('the card page works without scripts: no script tag, forms posting to the gateway', async () => {
    const { headers } = await shopper(t);
    const { gatewayUrl } = await startCheckout(t, headers, PLAN_CODES.duo);
    const { page } = await openGatewayPage(t, gatewayUrl);
    expect(page.statusCode).toBe(200);
    expect(page.body).not.toMatch(/<script/i);
    expect(page.body).toContain('action="/sandbox-gateway/payment/pay"');
    expect(page.body).toContain('9,900 ₮');
    expect(page.headers['content-security-policy']).toContain("script-src 'self'");
  });
});

describe('cancelling Premium', () => {
  it('turns auto-renew off and keeps access to the end of the period, then it ends', async () => {
    const { user, headers } = await shopper(t);
    const { gatewayUrl } = await startCheckout(t, headers, PLAN_CODES.premium);
    await returnToShop(t, await payOnGateway(t, gatewayUrl, PAID_CARD));
    const [active] = await subscriptionsOf(user.id);

    const cancel = () =>
      t.app.inject({
        method: 'POST',
        url: `/api/users/${user.id}/subscriptions/${active?.SubscriptionId}/cancel`,
        headers,
      });
    const response = await cancel();
    expect(response.statusCode, response.body).toBe(200);
    expect(response.json()).toMatchObject({ IsAutoRenew: false, EndDate: active?.EndDate });
    expect((await cancel()).json()).toMatchObject({ IsAutoRenew: false, EndDate: active?.EndDate });
    expect(await subscriptionsOf(user.id)).toMatchObject([{ IsAutoRenew: false }]);

    t.clock.set(new Date(active?.EndDate ?? 0).getTime() + 1000);
    try {
      expect(await subscriptionsOf(user.id)).toEqual([]);
    } finally {
      t.clock.set(Date.now());
    }
  });

  it('a member of a family plan sees it but cannot cancel it; others cannot reach it', async () => {
    const owner = await createUser(t.db);
    const member = await createUser(t.db);
    const stranger = await createUser(t.db);
    const created = await t.app.inject({
      method: 'POST',
      url: '/dev/premium/subscriptions',
      payload: { userId: owner.id, MerchantCode: PLAN_CODES.family },
    });
    const subscriptionId = created.json().SubscriptionId as string;
    await t.db
      .insertInto('subscription_members')
      .values({ subscription_id: subscriptionId, user_id: member.id })
      .execute();

    expect(await subscriptionsOf(member.id)).toMatchObject([
      { SubscriptionId: subscriptionId, Role: 'member' },
    ]);
    const asMember = await t.app.inject({
      method: 'POST',
      url: `/api/users/${member.id}/subscriptions/${subscriptionId}/cancel`,
      headers: await siteHeaders(t, member.id),
    });
    expect(asMember.statusCode).toBe(403);
    const asStranger = await t.app.inject({
      method: 'POST',
      url: `/api/users/${stranger.id}/subscriptions/${subscriptionId}/cancel`,
      headers: await siteHeaders(t, stranger.id),
    });
    expect(asStranger.statusCode).toBe(404);
    const othersList = await t.app.inject({
      method: 'GET',
      url: `/api/users/${owner.id}/subscriptions/`,
      headers: await siteHeaders(t, stranger.id),
    });
    expect(othersList.statusCode).toBe(403);
    const [ownerView] = await subscriptionsOf(owner.id);
    expect(ownerView?.IsAutoRenew).toBe(true);
  });

  it('keeps and shows the Apple IAP and Google Play sources', async () => {
    for (const SourceType of ['Apple IAP', 'Google Play']) {
      const user = await createUser(t.db);
      await t.app.inject({
        method: 'POST',
        url: '/dev/premium/subscriptions',
        payload: { userId: user.id, MerchantCode: PLAN_CODES.premium, SourceType },
      });
      expect(await subscriptionsOf(user.id)).toMatchObject([{ Source: { SourceType } }]);
    }
  });
});

describe('the end of a paid period', () => {
  it('a card period without a saved card whose renewal is not paid ends at its end date; the lapse turns auto-renew off', async () => {
    const { user, headers } = await shopper(t);
    const { gatewayUrl } = await startCheckout(t, headers, PLAN_CODES.premium, { saveCard: false });
    await returnToShop(t, await payOnGateway(t, gatewayUrl, PAID_CARD));
    const [period] = await subscriptionsOf(user.id);
    expect(period?.IsAutoRenew).toBe(true);
    try {
      t.clock.set(new Date(period?.EndDate ?? 0).getTime() - 1000);
      await t.app.jobs.runDue();
      expect(await subscriptionsOf(user.id)).toMatchObject([{ IsAutoRenew: true }]);

      // No renewal payment arrived: access ends at the end date, even before the lapse runs.
      t.clock.set(new Date(period?.EndDate ?? 0).getTime() + 1000);
      expect(await subscriptionsOf(user.id)).toEqual([]);
      const profile = await t.app.inject({
        method: 'GET',
        url: `/api/users/${user.id}/profile`,
        headers: await siteHeaders(t, user.id),
      });
      expect(profile.json().Subscriptions).toEqual([]);
      await t.app.jobs.runDue();
      expect(await ownSubscriptions(t, user.id)).toMatchObject([{ is_auto_renew: false }]);

      // The user may buy again: a new payment starts a new period from now.
      const again = await startCheckout(t, headers, PLAN_CODES.premium);
      await returnToShop(t, await payOnGateway(t, again.gatewayUrl, PAID_CARD));
      expect(await subscriptionsOf(user.id)).toMatchObject([
        { IsAutoRenew: true, StartDate: t.clock.now().toISOString() },
      ]);
    } finally {
      t.clock.set(Date.now());
    }
  });

  it('App Store periods are left to the store', async () => {
    const user = await createUser(t.db);
    await t.app.inject({
      method: 'POST',
      url: '/dev/premium/subscriptions',
      payload: { userId: user.id, MerchantCode: PLAN_CODES.premium, SourceType: 'Apple IAP' },
    });
    try {
      t.clock.advance(60 * 24 * 60 * 60 * 1000);
      await lapseUnpaidRenewals(t.deps);
      expect(await subscriptionsOf(user.id)).toMatchObject([
        { IsAutoRenew: true, Source: { SourceType: 'Apple IAP' } },
      ]);
    } finally {
      t.clock.set(Date.now());
    }
  });
});

describe('checkout throttle', () => {
  it('refuses more than ten checkouts in ten minutes for one user with 429 and Retry-After', async () => {
    const { headers } = await shopper(t);
    for (let i = 0; i < 10; i++) await startCheckout(t, headers, PLAN_CODES.premium);
    const response = await t.app.inject({
      method: 'POST',
      url: '/api/payments/checkout',
      headers,
      payload: { MerchantCode: PLAN_CODES.premium },
    });
    expect(response.statusCode).toBe(429);
    expect(Number(response.headers['retry-after'])).toBeGreaterThan(0);
  });
});

describe('POST /api/cache/item', () => {
  it('keeps a key and value for the signed-in user and refuses bad input and visitors', async () => {
    const { user, headers } = await shopper(t);
    const post = (payload: unknown, h = headers) =>
      t.app.inject({ method: 'POST', url: '/api/cache/item', headers: h, payload: payload as object });
    expect((await post({ key: 'userId', value: user.id })).json()).toEqual({ key: 'userId', value: user.id });
    expect((await post({ key: 'userId', value: 'again' })).statusCode).toBe(200);
    const stored = await t.db.selectFrom('cache_items').selectAll().where('user_id', '=', user.id).execute();
    expect(stored).toMatchObject([{ key: 'userId', value: 'again' }]);

    expect((await post({ key: '', value: 'x' })).json()).toMatchObject({ field: 'key' });
    expect((await post({ key: 'k' })).json()).toMatchObject({ field: 'value' });
    expect((await post({ key: 'k', value: 'v' }, STORE)).statusCode).toBe(401);
  });
});
