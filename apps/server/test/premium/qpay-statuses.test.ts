import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { checkQpayPayment } from '../../src/modules/premium/qpay-payments.js';
import { QPAY_CALLBACK_ANSWER } from '../../src/modules/providers/qpay-contract.js';
import { httpQpayGateway } from '../../src/modules/providers/qpay-gateway.js';
import type { JsonCall } from '../../src/modules/providers/transport.js';
import { PLAN_CODES, shopper, withPlans } from '../helpers/factories.js';
import { checkout, ownSubscriptions, paymentLog } from '../helpers/premium.js';
import {
  answerAtBank,
  loseCallbacks,
  orderQpayFaults,
  paymentStatus,
  qpayCheckout,
  sandboxQpayInvoiceOf,
} from '../helpers/qpay-factories.js';
import { createTestApp, type TestApp } from '../helpers/test-app.js';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
  await withPlans(t);
});
afterAll(async () => {
  await t.close();
});

/** `GET /api/payments/{invoiceId}` whole, after the 2 s between two checks of one invoice. */
async function pollAnswer(headers: Record<string, string>, invoiceId: string) {
  t.clock.advance(3_000);
  const response = await t.app.inject({ method: 'GET', url: `/api/payments/${invoiceId}`, headers });
  expect(response.statusCode, response.body).toBe(200);
  return response.json() as { status: string; partlyPaid?: { amount: number; currency: string } };
}

const capturesOf = (invoiceId: string) =>
  t.db
    .selectFrom('payment_ledger')
    .select(['reference', 'amount', 'outcome'])
    .where('invoice_id', '=', invoiceId)
    .where('entry', '=', 'capture')
    .execute();

describe("QPay's payment statuses", () => {
  it.each([
    ['PAID', 'paid', 1],
    ['PARTIAL', 'pending', 0],
    ['NEW', 'pending', 0],
    ['REFUND', 'pending', 0],
    ['FAILED', 'failed', 0],
  ] as const)(
    'a payment the bank records as %s leaves the invoice %s',
    async (status, shopperSees, periods) => {
      const { user, headers } = await shopper(t);
      const paid = await qpayCheckout(t, headers, PLAN_CODES.premium);
      await orderQpayFaults(t, { nextApproval: { status } });
      await answerAtBank(t, paid);
      expect((await pollAnswer(headers, paid.invoiceId)).status).toBe(shopperSees);
      expect(await ownSubscriptions(t, user.id)).toHaveLength(periods);
      expect(await capturesOf(paid.invoiceId)).toHaveLength(periods);
      // Only a payment in full closes the QPay invoice; a failed one makes us cancel it.
      const closed: Record<string, string> = { PAID: 'PAID', FAILED: 'CANCELLED' };
      expect((await sandboxQpayInvoiceOf(t, paid.invoiceId)).status).toBe(closed[status] ?? 'OPEN');
    },
  );

  it('PARTIAL: the invoice stays open, the page says what was taken, and paying the whole amount then pays it', async () => {
    const { user, headers } = await shopper(t);
    const qpay = await qpayCheckout(t, headers, PLAN_CODES.family);
    await orderQpayFaults(t, { nextApproval: { status: 'PARTIAL', amount: 5_000 } });
    await answerAtBank(t, qpay);
    expect(await pollAnswer(headers, qpay.invoiceId)).toEqual({
      status: 'pending',
      partlyPaid: { amount: 5_000, currency: 'MNT' },
    });
    expect(await ownSubscriptions(t, user.id)).toEqual([]);

    await answerAtBank(t, qpay, true, 1);
    expect(await pollAnswer(headers, qpay.invoiceId)).toEqual({ status: 'paid' });
    expect(await capturesOf(qpay.invoiceId)).toEqual([
      expect.objectContaining({ amount: 17_900, outcome: 'applied' }),
    ]);
  });

  it("REFUNDED (QPay's older name) and statuses nobody documented count as nothing and keep the check readable", async () => {
    const row = (payment_id: string, payment_status: string, payment_amount: string) => ({
      payment_id,
      payment_status,
      payment_amount,
      payment_currency: 'MNT',
      trx_fee: '0.00',
    });
    const answers: Record<string, unknown> = {
      '/v2/auth/token': {
        token_type: 'bearer',
        access_token: 'access-token-1',
        refresh_token: 'refresh-token-1',
        expires_in: Math.floor(t.clock.now().getTime() / 1000) + 1800,
        refresh_expires_in: Math.floor(t.clock.now().getTime() / 1000) + 86_400,
      },
      '/v2/payment/check': {
        count: 4,
        paid_amount: null,
        rows: [
          row('1', 'REFUNDED', '4900.00'),
          row('2', 'SETTLED', '4900.00'),
          row('3', 'REFUND', '4900.00'),
          row('4', 'PARTIAL', '1000.00'),
        ],
      },
    };
    const call: JsonCall = async (request) => ({
      status: 200,
      body: answers[new URL(request.url).pathname] ?? {},
    });
    const qpay = httpQpayGateway({
      baseUrl: 'https://qpay.example',
      clientId: 'client',
      clientSecret: 'client-secret',
      invoiceCode: 'TUNES_INVOICE',
      receiverCode: 'terminal',
      call,
      clock: t.clock,
    });
    const check = await checkQpayPayment({ qpay, db: t.db }, 'a-qpay-invoice');
    expect(check.result).toMatchObject({ status: 'pending', captures: [], partlyPaid: 1_000 });
    const seen = (await qpay.checkPayment('a-qpay-invoice')).result.rows.map((one) => one.status);
    expect(seen).toEqual(['REFUNDED', 'UNKNOWN', 'REFUND', 'PARTIAL']);
  });
});

describe("QPay's callback", () => {
  it('answers 200 `SUCCESS` (text/plain) to a GET or a POST, whatever it carries, and never believes it', async () => {
    const { user, headers } = await shopper(t);
    const qpay = await qpayCheckout(t, headers, PLAN_CODES.premium);
    const url = `/api/payments/qpay/callback?invoiceId=${encodeURIComponent(qpay.invoiceId)}`;
    const calls = [
      { method: 'GET' as const, url },
      { method: 'POST' as const, url, payload: { payment_id: 'forged', status: 'PAID' } },
      { method: 'POST' as const, url, headers: { 'content-type': 'application/json' }, payload: '{not json' },
      { method: 'POST' as const, url, headers: { 'content-type': 'text/plain' }, payload: 'PAID' },
      { method: 'GET' as const, url: '/api/payments/qpay/callback' },
      { method: 'GET' as const, url: '/api/payments/qpay/callback?invoiceId=a&invoiceId=b' },
      { method: 'GET' as const, url: `/api/payments/qpay/callback?invoiceId=${'x'.repeat(300)}` },
    ];
    for (const request of calls) {
      const answer = await t.app.inject(request);
      expect({ status: answer.statusCode, body: answer.body }, `${request.method} ${request.url}`).toEqual({
        status: 200,
        body: QPAY_CALLBACK_ANSWER,
      });
      expect(answer.headers['content-type']).toMatch(/^text\/plain/);
    }
    expect(await ownSubscriptions(t, user.id)).toEqual([]);
  });
});

describe('QPay slow or down', () => {
  it('an invoice QPay cannot open (503) fails the checkout with a 502; the next checkout works', async () => {
    const { headers } = await shopper(t);
    await orderQpayFaults(t, { call: 'invoice', count: 1, kind: 'unavailable' });
    const down = await checkout(t, headers, { MerchantCode: PLAN_CODES.premium, method: 'qpay' });
    expect(down.statusCode, down.body).toBe(502);
    await qpayCheckout(t, headers, PLAN_CODES.premium);
  });

  it('a payment check answered 500 leaves the invoice pending and logged; the next check settles it', async () => {
    const { user, headers } = await shopper(t);
    const qpay = await qpayCheckout(t, headers, PLAN_CODES.duo);
    await loseCallbacks(t, qpay.invoiceId);
    await answerAtBank(t, qpay);
    await orderQpayFaults(t, { call: 'payment-check', count: 1, kind: 'error' });
    expect((await pollAnswer(headers, qpay.invoiceId)).status).toBe('pending');
    const logged = (await paymentLog(t, qpay.invoiceId)).filter((row) => row.type === 'error');
    expect(logged.at(-1)?.message).toMatch(/QPay: answered 500/);
    expect((await pollAnswer(headers, qpay.invoiceId)).status).toBe('paid');
    expect(await ownSubscriptions(t, user.id)).toHaveLength(1);
  });

  it('slow answers are waited for: a checkout and its check succeed through a 200 ms delay each', async () => {
    const { headers } = await shopper(t);
    await orderQpayFaults(t, { call: '*', count: 2, kind: 'slow', delayMs: 200 });
    const started = performance.now();
    const qpay = await qpayCheckout(t, headers, PLAN_CODES.premium);
    expect(await paymentStatus(t, headers, qpay.invoiceId)).toBe('pending');
    expect(performance.now() - started).toBeGreaterThanOrEqual(400);
  });

  it('a refresh token QPay no longer knows: the adapter takes a new token with the client credentials', async () => {
    const { headers } = await shopper(t);
    await qpayCheckout(t, headers, PLAN_CODES.premium);
    await t.db.deleteFrom('sandbox_qpay_tokens').execute();
    t.clock.advance(31 * 60_000);
    await qpayCheckout(t, headers, PLAN_CODES.premium);
    const issued = await t.db.selectFrom('sandbox_qpay_tokens').select('kind').execute();
    expect(issued.map((token) => token.kind).sort()).toEqual(['access', 'refresh']);
  });
});
