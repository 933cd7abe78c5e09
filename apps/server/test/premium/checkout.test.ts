import { ALREADY_SUBSCRIBED_MESSAGE } from '@tunes/shared/premium-rules';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PLAN_CODES, STORE, shopper, withPlans } from '../helpers/factories.js';
import { checkout, openGatewayPage, paymentLog, startCheckout } from '../helpers/premium.js';
import { createTestApp, type TestApp } from '../helpers/test-app.js';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
  await withPlans(t);
});
afterAll(async () => {
  await t.close();
});

const invoiceCount = async () =>
  Number(
    (
      await t.db
        .selectFrom('payment_invoices')
        .select((eb) => eb.fn.countAll().as('n'))
        .executeTakeFirstOrThrow()
    ).n,
  );

describe('POST /api/payments/checkout', () => {
  it('answers the gateway page with the payment token and os=PC, and logs the session as created', async () => {
    const { user, headers } = await shopper(t);
    const { url, invoiceId, gatewayUrl } = await startCheckout(t, headers, PLAN_CODES.premium);

    expect(invoiceId).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}_PREMIUM_1M$/);
    expect(url.startsWith(`${t.config.PAYMENT_PROVIDER_URL}/payment?`)).toBe(true);
    expect(gatewayUrl.searchParams.get('os')).toBe('PC');
    expect(gatewayUrl.searchParams.get('token')).toMatch(/^[\w-]{20,}$/);

    const [created] = await paymentLog(t, invoiceId);
    expect(created).toMatchObject({
      order_number: invoiceId,
      user_id: user.id,
      subscriber_name: 'Bold Bat',
      package_name: 'Premium',
      purchase_price: 6900,
      current_process: 'checkout',
      type: 'info',
      message: 'created',
    });
    expect(created?.request).toMatchObject({
      amount: 6900,
      currency: 'MNT',
      languageCode: 'mn',
      payment_type: 'purchase',
      invoice_id: invoiceId,
    });
    expect(JSON.stringify(created)).not.toContain(t.config.PAYMENT_CLIENT_SECRET);
  });

  it('charges the Cost stored in the database, whatever the browser sends', async () => {
    const { headers } = await shopper(t);
    const before = await invoiceCount();
    const tampered = await checkout(t, headers, { MerchantCode: PLAN_CODES.family, Cost: 1, amount: 1 });
    expect(tampered.statusCode).toBe(400);
    expect(await invoiceCount()).toBe(before);

    await t.db
      .updateTable('packages')
      .set({ cost: 18_500 })
      .where('merchant_code', '=', PLAN_CODES.family)
      .execute();
    try {
      const { gatewayUrl, invoiceId } = await startCheckout(t, headers, PLAN_CODES.family);
      const invoice = await t.db
        .selectFrom('payment_invoices')
        .select('amount')
        .where('invoice_id', '=', invoiceId)
        .executeTakeFirstOrThrow();
      expect(invoice.amount).toBe(18_500);
      const { page } = await openGatewayPage(t, gatewayUrl);
      expect(page.body).toContain('18,500 ₮');
    } finally {
      await t.db
        .updateTable('packages')
        .set({ cost: 17_900 })
        .where('merchant_code', '=', PLAN_CODES.family)
        .execute();
    }
  });

  it('refuses an unknown MerchantCode, a non-MNT plan and a plan of another offer, naming the field', async () => {
    const { headers } = await shopper(t);
    const before = await invoiceCount();
    for (const [MerchantCode, message] of [
      ['NO_SUCH_PLAN', /no plan with the code NO_SUCH_PLAN/],
      ['PREMIUM_1M_USD', /USD cannot be bought here/],
      ['PREMIUM_12M', /not sold on the site/],
    ] as const) {
      const response = await checkout(t, headers, { MerchantCode });
      expect(response.statusCode, MerchantCode).toBe(400);
      expect(response.json()).toMatchObject({ error: 'bad_request', field: 'MerchantCode' });
      expect(response.json().message).toMatch(message);
    }
    for (const body of [
      {},
      { MerchantCode: '' },
      { MerchantCode: 'x'.repeat(65) },
      { MerchantCode: "'; drop" },
    ]) {
      const response = await checkout(t, headers, body);
      expect(response.statusCode).toBe(400);
      expect(response.json().field).toBe('MerchantCode');
    }
    expect(await invoiceCount()).toBe(before);
  });

  it('refuses a visitor', async () => {
    const response = await checkout(t, STORE, { MerchantCode: PLAN_CODES.premium });
    expect(response.statusCode).toBe(401);
  });

  it('refuses a subscriber who already has an active subscription with the spec message', async () => {
    const { user, headers } = await shopper(t);
    await t.app.inject({
      method: 'POST',
      url: '/dev/premium/subscriptions',
      payload: { userId: user.id, MerchantCode: PLAN_CODES.premium },
    });
    const before = await invoiceCount();
    const response = await checkout(t, headers, { MerchantCode: PLAN_CODES.duo });
    expect(response.statusCode).toBe(409);
    expect(response.json()).toMatchObject({
      error: 'already_subscribed',
      message: ALREADY_SUBSCRIBED_MESSAGE,
    });
    expect(await invoiceCount()).toBe(before);
  });
});

describe('a payment gateway that cannot be reached', () => {
  let down: TestApp;
  beforeAll(async () => {
    down = await createTestApp({ PAYMENT_PROVIDER_URL: 'http://127.0.0.1:9/gateway' });
    await withPlans(down);
  });
  afterAll(async () => {
    await down.close();
  });

  it('shows a clear message, marks the invoice failed and logs the failure', async () => {
    const { headers } = await shopper(down);
    const response = await checkout(down, headers, { MerchantCode: PLAN_CODES.premium });
    expect(response.statusCode).toBe(502);
    expect(response.json()).toMatchObject({
      error: 'payment_gateway_error',
      message: 'The payment gateway could not start the payment. Please try again later.',
    });
    const invoice = await down.db.selectFrom('payment_invoices').selectAll().executeTakeFirstOrThrow();
    expect(invoice.status).toBe('failed');
    const log = await paymentLog(down, invoice.invoice_id);
    expect(log).toMatchObject([{ current_process: 'checkout', type: 'error' }]);
    expect(log[0]?.message).toMatch(/unreachable/);
  });
});
