import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { withPlans } from '../helpers/factories.js';
import { subscriber } from '../helpers/premium.js';
import { createTestApp, type TestApp } from '../helpers/test-app.js';

/** The card sandbox's `rest/refund` as a real gateway's: partial refunds of a capture, once each. */

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
  await withPlans(t);
});
afterAll(async () => {
  await t.close();
});

const credentials = () => ({
  client_id: t.config.PAYMENT_CLIENT_ID,
  client_secret: t.config.PAYMENT_CLIENT_SECRET,
});

function gatewayCall(path: string, body: Record<string, unknown>) {
  return t.app.inject({
    method: 'POST',
    url: `/sandbox-gateway/rest/${path}`,
    payload: { ...credentials(), ...body },
  });
}

const refund = (invoiceId: string, amount: number, refundId: string = randomUUID(), reference?: string) =>
  gatewayCall('refund', {
    invoice_id: invoiceId,
    amount,
    currency: 'MNT',
    refund_id: refundId,
    ...(reference ? { reference } : {}),
  });

const paidAmount = async (invoiceId: string) =>
  (
    await t.db
      .selectFrom('payment_invoices')
      .select('amount')
      .where('invoice_id', '=', invoiceId)
      .executeTakeFirstOrThrow()
  ).amount;

describe('card sandbox refunds', () => {
  it('refunds a payment in parts up to what it took, and no further', async () => {
    const buyer = await subscriber(t);
    const paid = await paidAmount(buyer.invoiceId);
    const first = await refund(buyer.invoiceId, 1000);
    expect(first.statusCode, first.body).toBe(200);
    expect(first.json()).toMatchObject({ status: 'refunded', amount: 1000, reference: 'session' });
    const tooMuch = await refund(buyer.invoiceId, paid - 999);
    expect(tooMuch.statusCode, tooMuch.body).toBe(409);
    expect(tooMuch.json()).toMatchObject({ error: 'amount_mismatch' });
    const rest = await refund(buyer.invoiceId, paid - 1000, undefined, 'session');
    expect(rest.statusCode, rest.body).toBe(200);
    expect((await refund(buyer.invoiceId, 1)).json()).toMatchObject({ error: 'amount_mismatch' });
  });

  it('answers the same refund_id with the first refund, not a second one', async () => {
    const buyer = await subscriber(t);
    const refundId = `operator:${randomUUID()}`;
    const answers = await Promise.all(
      Array.from({ length: 10 }, () => refund(buyer.invoiceId, 500, refundId)),
    );
    for (const answer of answers) {
      expect(answer.statusCode, answer.body).toBe(200);
      expect(answer.json()).toMatchObject({ refund_id: refundId, amount: 500 });
    }
    const rows = await t.db
      .selectFrom('sandbox_gateway_refunds')
      .selectAll()
      .where('invoice_id', '=', buyer.invoiceId)
      .execute();
    expect(rows).toHaveLength(1);
  });

  it('50 concurrent partial refunds never give back more than was paid', async () => {
    const buyer = await subscriber(t);
    const paid = await paidAmount(buyer.invoiceId);
    const part = Math.ceil(paid / 7);
    const answers = await Promise.all(Array.from({ length: 50 }, () => refund(buyer.invoiceId, part)));
    const statuses = answers.map((answer) => answer.statusCode);
    expect(statuses.filter((status) => status === 200)).toHaveLength(Math.floor(paid / part));
    expect(statuses.filter((status) => status !== 200).every((status) => status === 409)).toBe(true);
    const { total } = await t.db
      .selectFrom('sandbox_gateway_refunds')
      .select((eb) => eb.fn.sum<string>('amount').as('total'))
      .where('invoice_id', '=', buyer.invoiceId)
      .executeTakeFirstOrThrow();
    expect(Number(total)).toBeLessThanOrEqual(paid);
  });

  it('refunds a saved-card charge by its attempt, and nothing that was not paid', async () => {
    const buyer = await subscriber(t, undefined, undefined, { saveCard: true });
    const check = await gatewayCall('check-payment', { invoice_id: buyer.invoiceId });
    const cardToken = (check.json() as { card: { token: string } }).card.token;
    const invoiceId = `renewal-${randomUUID()}`;
    const charged = await gatewayCall('charge', {
      card_token: cardToken,
      invoice_id: invoiceId,
      attempt: 2,
      amount: 5000,
      currency: 'MNT',
    });
    expect(charged.json()).toMatchObject({ status: 'paid' });
    expect((await refund(invoiceId, 100, undefined, 'charge:1')).statusCode).toBe(404);
    expect((await refund(invoiceId, 100)).statusCode).toBe(404);
    expect((await refund(`never-${randomUUID()}`, 100)).statusCode).toBe(404);
    const back = await refund(invoiceId, 5000, undefined, 'charge:2');
    expect(back.statusCode, back.body).toBe(200);
    expect(back.json()).toMatchObject({ reference: 'charge:2', amount: 5000 });
    expect((await refund(invoiceId, 1, undefined, 'charge:2')).statusCode).toBe(409);
  });
});
