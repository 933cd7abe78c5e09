import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { z } from 'zod';
import { startCheckout } from '../../src/modules/premium/checkout.js';
import { GatewayError } from '../../src/modules/providers/exchange.js';
import {
  gatewayChargeAnswerSchema,
  gatewayChargeRequestSchema,
  gatewayCheckAnswerSchema,
  gatewayErrorSchema,
  gatewayInvoiceRequestSchema,
  gatewayPageQuerySchema,
  gatewayRefundAnswerSchema,
  gatewayRefundRequestSchema,
  gatewayTokenAnswerSchema,
  gatewayTokenRequestSchema,
  gatewayTransactionsAnswerSchema,
  gatewayVoidAnswerSchema,
} from '../../src/modules/providers/gateway-contract.js';
import { createProviders } from '../../src/modules/providers/providers.js';
import { PLAN_CODES, shopper, withPlans } from '../helpers/factories.js';
import { orderGatewayFaults, PAID_CARD, payOnGateway, returnToShop } from '../helpers/premium.js';
import { createTestApp, type TestApp } from '../helpers/test-app.js';

/**
 * The card gateway as the product documents its protocol (providers/gateway-contract.ts): the
 * adapter asks only what the contract allows, the sandbox answers what it documents, refuses
 * what it does not allow with 400 `{ error, message }`, and fails or slows down when told.
 */

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
  await withPlans(t);
});
afterAll(async () => {
  await t.close();
});

/** The product's gateway adapter, recording what it sends to the sandbox. */
function recordedGateway() {
  const sent: { path: string; body: Record<string, unknown> }[] = [];
  const { paymentGateway: gateway } = createProviders(t.deps, (request) => {
    sent.push({
      path: new URL(request.url).pathname.replace(/^.*\/rest\//, ''),
      body: request.body as Record<string, unknown>,
    });
    return t.deps.transport.call(request);
  });
  const sentTo = (path: string) => sent.filter((call) => call.path === path).map((call) => call.body);
  return { gateway, sentTo };
}

/** Strictly: a field the contract does not name is a mismatch too. */
const strictly = (schema: z.ZodObject, body: unknown) => schema.strict().safeParse(body);

const credentials = () => ({
  client_id: t.config.PAYMENT_CLIENT_ID,
  client_secret: t.config.PAYMENT_CLIENT_SECRET,
});

const call = (path: string, body: Record<string, unknown>) =>
  t.app.inject({
    method: 'POST',
    url: `/sandbox-gateway/rest/${path}`,
    payload: { ...credentials(), ...body },
  });

const orderFaults = (body: Record<string, unknown>) => orderGatewayFaults(t, body);

/** The test app's PUBLIC_URL (helpers/test-app.ts); the refusal table is built before it starts. */
const SHOP = 'http://localhost:3000';

const tokenRequest = (overrides: Record<string, unknown> = {}) => ({
  amount: 6900,
  currency: 'MNT',
  description: 'Premium',
  invoice_id: `${randomUUID()}_${PLAN_CODES.premium}`,
  redirect_url: `${SHOP}/api/payments/return`,
  callback_url: `${SHOP}/api/payments/callback`,
  languageCode: 'mn',
  deviceType: 'pc',
  device: 'PC',
  payment_type: 'purchase',
  phone: '97688112233',
  email: 'bold@example.mn',
  ...overrides,
});

describe('the adapter speaks the documented protocol', () => {
  it('every request the adapter makes validates against the contract, and every sandbox answer too', async () => {
    const { gateway, sentTo } = recordedGateway();
    const { user } = await shopper(t);
    const deps = { ...t.deps, paymentGateway: gateway };
    // The checkout's own token request, with a card to keep.
    const started = await startCheckout(deps, user.id, { MerchantCode: PLAN_CODES.family, saveCard: true });
    const [tokenSent] = sentTo('token');
    expect(strictly(gatewayTokenRequestSchema, tokenSent).error).toBeUndefined();
    const pageUrl = new URL(started.url);
    expect(gatewayPageQuerySchema.safeParse(Object.fromEntries(pageUrl.searchParams)).success).toBe(true);
    await returnToShop(t, await payOnGateway(t, pageUrl, PAID_CARD));

    const check = await gateway.checkPayment(started.invoiceId);
    expect(gatewayCheckAnswerSchema.parse(check.result)).toMatchObject({ status: 'paid' });
    const cardToken = check.result.card?.token ?? '';
    const renewalInvoice = `${randomUUID()}_${PLAN_CODES.family}`;
    const charge = await gateway.chargeCard({
      cardToken,
      invoiceId: renewalInvoice,
      attempt: 1,
      amount: 17_900,
      currency: 'MNT',
    });
    expect(gatewayChargeAnswerSchema.parse(charge.result)).toMatchObject({
      status: 'paid',
      reference: 'charge:1',
    });
    const refund = await gateway.refund({
      invoiceId: renewalInvoice,
      amount: 1000,
      currency: 'MNT',
      refundId: `operator:${randomUUID()}`,
      reference: 'charge:1',
    });
    expect(gatewayRefundAnswerSchema.parse(refund.result)).toMatchObject({
      status: 'refunded',
      amount: 1000,
    });
    const unpaid = tokenRequest();
    await gateway.requestToken({ ...unpaid, callback_url: unpaid.callback_url });
    const voided = await gateway.voidPayment(unpaid.invoice_id);
    expect(gatewayVoidAnswerSchema.parse(voided.result).status).toBe('cancelled');
    const transactions = await gateway.transactions(renewalInvoice);
    expect(gatewayTransactionsAnswerSchema.parse(transactions.result).refunds).toHaveLength(1);

    const requests: [string, z.ZodObject][] = [
      ['token', gatewayTokenRequestSchema],
      ['check-payment', gatewayInvoiceRequestSchema],
      ['charge', gatewayChargeRequestSchema],
      ['refund', gatewayRefundRequestSchema],
      ['void', gatewayInvoiceRequestSchema],
      ['transactions', gatewayInvoiceRequestSchema],
    ];
    for (const [path, schema] of requests) {
      const bodies = sentTo(path);
      expect(bodies.length, path).toBeGreaterThan(0);
      for (const body of bodies) expect(strictly(schema, body).error, path).toBeUndefined();
    }
  });
});

describe('the sandbox refuses what the protocol does not allow, with 400 { error, message }', () => {
  const refusals: [string, string, Record<string, unknown>][] = [
    ['an amount of nothing', 'token', tokenRequest({ amount: 0 })],
    ['an amount in fractions', 'token', tokenRequest({ amount: 6900.5 })],
    ['an amount beyond a billion', 'token', tokenRequest({ amount: 1_000_000_001 })],
    ['a currency other than MNT', 'token', tokenRequest({ currency: 'USD' })],
    ['an empty description', 'token', tokenRequest({ description: '' })],
    ['a description over 500 characters', 'token', tokenRequest({ description: 'x'.repeat(501) })],
    ['an empty invoice id', 'token', tokenRequest({ invoice_id: '' })],
    ['an invoice id over 100 characters', 'token', tokenRequest({ invoice_id: 'a'.repeat(101) })],
    ['an invoice id with a space', 'token', tokenRequest({ invoice_id: 'a b' })],
    ['a redirect that is not a web address', 'token', tokenRequest({ redirect_url: 'javascript:alert(1)' })],
    [
      'a callback over 2000 characters',
      'token',
      tokenRequest({ callback_url: `https://x.mn/${'a'.repeat(2000)}` }),
    ],
    ['a language other than mn or en', 'token', tokenRequest({ languageCode: 'fr' })],
    ['a device type other than mobile or pc', 'token', tokenRequest({ deviceType: 'tablet' })],
    ['a device other than PC', 'token', tokenRequest({ device: 'MAC' })],
    ['a payment type other than purchase', 'token', tokenRequest({ payment_type: 'subscription' })],
    ['a phone number that is not 6–15 digits', 'token', tokenRequest({ phone: '+976 8811 2233' })],
    ['an e-mail without @', 'token', tokenRequest({ email: 'bold.example.mn' })],
    ['a missing client id', 'token', { ...tokenRequest(), client_id: undefined }],
    ['a check of an invoice id with a slash', 'check-payment', { invoice_id: 'a/b' }],
    [
      'a charge of attempt 0',
      'charge',
      { card_token: 'card_x', invoice_id: 'inv-1', attempt: 0, amount: 100, currency: 'MNT' },
    ],
    [
      'a charge of attempt 101',
      'charge',
      { card_token: 'card_x', invoice_id: 'inv-1', attempt: 101, amount: 100, currency: 'MNT' },
    ],
    [
      'a charge without a card token',
      'charge',
      { card_token: '', invoice_id: 'inv-1', attempt: 1, amount: 100, currency: 'MNT' },
    ],
    [
      'a refund id with a space',
      'refund',
      { invoice_id: 'inv-1', amount: 100, currency: 'MNT', refund_id: 'a b' },
    ],
    [
      'a refund id over 200 characters',
      'refund',
      { invoice_id: 'inv-1', amount: 100, currency: 'MNT', refund_id: 'r'.repeat(201) },
    ],
    [
      'a refund of capture charge:0',
      'refund',
      { invoice_id: 'inv-1', amount: 100, currency: 'MNT', refund_id: 'r1', reference: 'charge:0' },
    ],
    [
      'a refund of an unknown capture kind',
      'refund',
      { invoice_id: 'inv-1', amount: 100, currency: 'MNT', refund_id: 'r1', reference: 'capture' },
    ],
    ['a void of an empty invoice id', 'void', { invoice_id: '' }],
    ['transactions of an invoice id over 100 characters', 'transactions', { invoice_id: 'a'.repeat(101) }],
  ];
  const schemaOf: Record<string, z.ZodObject> = {
    token: gatewayTokenRequestSchema,
    'check-payment': gatewayInvoiceRequestSchema,
    charge: gatewayChargeRequestSchema,
    refund: gatewayRefundRequestSchema,
    void: gatewayInvoiceRequestSchema,
    transactions: gatewayInvoiceRequestSchema,
  };

  it.each(refusals)('%s (rest/%s)', async (_name, path, body) => {
    expect(schemaOf[path]?.safeParse({ ...credentials(), ...body }).success).toBe(false);
    const response = await call(path, body);
    expect(response.statusCode, response.body).toBe(400);
    const refusal = response.json();
    expect(Object.keys(refusal).sort()).toEqual(['error', 'message']);
    expect(gatewayErrorSchema.parse(refusal).error).toBe('invalid_request');
  });

  it('accepts the same requests within the limits', async () => {
    const response = await call('token', tokenRequest());
    expect(response.statusCode, response.body).toBe(200);
    expect(gatewayTokenAnswerSchema.parse(response.json()).token).toBeTruthy();
  });

  it('the gateway page refuses an os other than PC and an over-long token', async () => {
    for (const query of ['token=abc&os=MAC', `token=${'t'.repeat(201)}&os=PC`]) {
      const page = await t.app.inject({ method: 'GET', url: `/sandbox-gateway/payment?${query}` });
      expect(page.statusCode, query).toBe(400);
      expect(Object.keys(page.json()).sort()).toEqual(['error', 'message']);
    }
  });
});

describe('faults on demand', () => {
  it('an ordered outage answers 503 once, then the call works again; the adapter reports it', async () => {
    const { gateway } = recordedGateway();
    await orderFaults({ call: 'check-payment', count: 1, kind: 'unavailable' });
    const failed = await gateway.checkPayment('inv-outage').catch((error: unknown) => error);
    expect(failed).toBeInstanceOf(GatewayError);
    expect((failed as GatewayError).message).toMatch(/503/);
    expect(gatewayErrorSchema.parse((failed as GatewayError).response).error).toBe('unavailable');
    const next = await call('check-payment', { invoice_id: 'inv-outage' });
    expect(next.statusCode).not.toBe(503);
  });

  it('an ordered server error answers 500, and a failed token start is the shopper’s 502', async () => {
    await orderFaults({ call: 'token', count: 1, kind: 'error' });
    const { headers } = await shopper(t);
    const checkout = await t.app.inject({
      method: 'POST',
      url: '/api/payments/checkout',
      headers,
      payload: { MerchantCode: PLAN_CODES.premium },
    });
    expect(checkout.statusCode, checkout.body).toBe(502);
    const again = await t.app.inject({
      method: 'POST',
      url: '/api/payments/checkout',
      headers,
      payload: { MerchantCode: PLAN_CODES.premium },
    });
    expect(again.statusCode, again.body).toBe(200);
  });

  it('a fault for any call takes the next call, whichever it is; a slow one answers after its delay', async () => {
    await orderFaults({ call: '*', count: 1, kind: 'unavailable' });
    expect((await call('transactions', { invoice_id: 'inv-any' })).statusCode).toBe(503);
    expect((await call('transactions', { invoice_id: 'inv-any' })).statusCode).toBe(200);
    await orderFaults({ call: 'transactions', count: 1, kind: 'slow', delayMs: 300 });
    const started = Date.now();
    const slow = await call('transactions', { invoice_id: 'inv-any' });
    expect(slow.statusCode).toBe(200);
    expect(Date.now() - started).toBeGreaterThanOrEqual(290);
  });
});
