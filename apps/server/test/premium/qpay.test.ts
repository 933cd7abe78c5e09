import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { qpaySenderInvoiceNo } from '../../src/modules/premium/qpay-payments.js';
import { settleInvoice } from '../../src/modules/premium/settlement.js';
import { PLAN_CODES, shopper, siteHeaders, withPlans } from '../helpers/factories.js';
import { ownSubscriptions, paymentLog } from '../helpers/premium.js';
import {
  answerAtBank,
  loseCallbacks,
  paymentStatus,
  qpayCallback,
  qpayCheckout,
  runDue,
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

const qpayChecks = async (invoiceId: string, step?: string) =>
  (await paymentLog(t, invoiceId)).filter(
    (row) => row.message.startsWith('QPay status') && (!step || row.current_process === step),
  );

describe('paying with QPay', () => {
  it('a listener pays Family by QR: the QPay invoice carries our invoice number, the bank approves, the callback settles it', async () => {
    const { user, headers } = await shopper(t);
    const checkout = await qpayCheckout(t, headers, PLAN_CODES.family);
    expect(checkout).toMatchObject({ method: 'qpay', amount: 17_900, currency: 'MNT' });
    expect(Buffer.from(checkout.qrImage, 'base64').subarray(1, 4).toString()).toBe('PNG');
    expect(checkout.qrText).toMatch(/\/sandbox-qpay\/pay\//);
    expect(checkout.shortUrl).toBeTruthy();
    expect(checkout.deeplinks.length).toBeGreaterThanOrEqual(3);
    for (const link of checkout.deeplinks) {
      expect(link).toMatchObject({ name: expect.any(String), description: expect.any(String) });
      expect(link.logo).toMatch(/\.svg$/);
    }
    const qpayInvoice = await sandboxQpayInvoiceOf(t, checkout.invoiceId);
    expect(qpayInvoice).toMatchObject({ amount: 17_900, invoice_code: t.config.QPAY_INVOICE_CODE });
    expect(qpayInvoice.callback_url).toContain(encodeURIComponent(checkout.invoiceId));
    expect(await paymentStatus(t, headers, checkout.invoiceId)).toBe('pending');

    await answerAtBank(t, checkout);
    expect(await paymentStatus(t, headers, checkout.invoiceId)).toBe('paid');
    const [period] = await ownSubscriptions(t, user.id);
    expect(period?.invoice_id).toBe(checkout.invoiceId);
    // The callback was only a reason to ask QPay, which said it was paid.
    expect((await qpayChecks(checkout.invoiceId, 'callback')).at(-1)?.message).toBe('QPay status: paid');

    const history = await t.app.inject({ method: 'GET', url: '/api/users/me/payments', headers });
    expect(history.json()[0]).toMatchObject({
      invoiceId: checkout.invoiceId,
      method: 'qpay',
      status: 'paid',
    });
  });

  it('a forged callback for an unpaid invoice activates nothing: QPay is asked and says pending', async () => {
    const { user, headers } = await shopper(t);
    const checkout = await qpayCheckout(t, headers, PLAN_CODES.premium);
    for (const method of ['GET', 'POST'] as const) {
      const forged = await qpayCallback(t, checkout.invoiceId, method);
      expect(forged.statusCode).toBe(200);
      expect(forged.body).toBe('SUCCESS');
    }
    expect(await ownSubscriptions(t, user.id)).toEqual([]);
    const checks = await qpayChecks(checkout.invoiceId, 'callback');
    expect(checks.map((row) => row.message)).toEqual(['QPay status: pending']);
    const unknown = await qpayCallback(t, 'no-such-invoice');
    expect(unknown.statusCode).toBe(200);
    // QPay is answered SUCCESS whatever it says, or it keeps calling back.
    const bad = await t.app.inject({ method: 'GET', url: '/api/payments/qpay/callback' });
    expect({ status: bad.statusCode, body: bad.body }).toEqual({ status: 200, body: 'SUCCESS' });
  });

  it('a flood of 50 callbacks makes one payment/check at QPay', async () => {
    const { headers } = await shopper(t);
    const checkout = await qpayCheckout(t, headers, PLAN_CODES.duo);
    const answers = await Promise.all(Array.from({ length: 50 }, () => qpayCallback(t, checkout.invoiceId)));
    expect(answers.every((answer) => answer.statusCode === 200)).toBe(true);
    expect(await qpayChecks(checkout.invoiceId)).toHaveLength(1);
  });

  it('20 concurrent callbacks, polls and checks of one paid QPay invoice activate once and issue one e-barimt', async () => {
    const { user, headers } = await shopper(t);
    const checkout = await qpayCheckout(t, headers, PLAN_CODES.family);
    await loseCallbacks(t, checkout.invoiceId);
    await answerAtBank(t, checkout);
    expect(await ownSubscriptions(t, user.id)).toEqual([]);
    const deps = t.deps;
    const attempts = Array.from({ length: 20 }, (_, i) => {
      switch (i % 3) {
        case 0:
          return qpayCallback(t, checkout.invoiceId);
        case 1:
          return settleInvoice(deps, checkout.invoiceId, 'check');
        default:
          return paymentStatus(t, headers, checkout.invoiceId);
      }
    });
    const results = await Promise.allSettled(attempts);
    expect(results.filter((result) => result.status === 'rejected')).toEqual([]);
    expect(await ownSubscriptions(t, user.id)).toHaveLength(1);
    const activations = (await paymentLog(t, checkout.invoiceId)).filter(
      (row) => row.current_process === 'activation',
    );
    expect(activations).toHaveLength(1);

    await Promise.all([runDue(t), runDue(t)]);
    const receipts = await t.db
      .selectFrom('ebarimt_receipts')
      .selectAll()
      .where('invoice_id', '=', checkout.invoiceId)
      .execute();
    expect(receipts).toHaveLength(1);
    expect(receipts[0]).toMatchObject({ kind: 'citizen', status: 'issued' });
    const issued = await t.db
      .selectFrom('sandbox_ebarimt_receipts')
      .select('id')
      .where('id', '=', receipts[0]?.bill_id ?? '')
      .execute();
    expect(issued).toHaveLength(1);
  });

  it('the reconciliation job settles a paid QPay invoice whose callback was lost and whose shopper left', async () => {
    const { user } = await shopper(t);
    const headers = await siteHeaders(t, user.id);
    const checkout = await qpayCheckout(t, headers, PLAN_CODES.premium);
    await loseCallbacks(t, checkout.invoiceId);
    await answerAtBank(t, checkout);
    t.clock.advance(31_000);
    const ran = await runDue(t);
    expect(ran.ran.find((kind) => kind.name === 'payments.reconcile')?.count).toBeGreaterThanOrEqual(1);
    expect(await ownSubscriptions(t, user.id)).toHaveLength(1);
    expect((await qpayChecks(checkout.invoiceId, 'check')).at(-1)?.message).toBe('QPay status: paid');
  });

  it('a payment declined in the bank app fails the invoice and cancels it at QPay; nothing is activated', async () => {
    const { user, headers } = await shopper(t);
    const checkout = await qpayCheckout(t, headers, PLAN_CODES.family);
    await answerAtBank(t, checkout, false);
    expect(await paymentStatus(t, headers, checkout.invoiceId)).toBe('failed');
    expect(await ownSubscriptions(t, user.id)).toEqual([]);
    expect((await sandboxQpayInvoiceOf(t, checkout.invoiceId)).status).toBe('CANCELLED');
    // A bank app opened afterwards can no longer pay it.
    const link = new URL(checkout.deeplinks[1]?.link ?? '');
    const late = await t.app.inject({ method: 'GET', url: link.pathname + link.search });
    expect(late.statusCode).toBe(409);
  });

  it('an unpaid QPay invoice expires after a day: cancelled at QPay, expired here, nothing activated', async () => {
    const { user, headers } = await shopper(t);
    const checkout = await qpayCheckout(t, headers, PLAN_CODES.premium);
    t.clock.advance(25 * 60 * 60_000);
    const fresh = await siteHeaders(t, user.id);
    expect(await paymentStatus(t, fresh, checkout.invoiceId)).toBe('expired');
    expect((await sandboxQpayInvoiceOf(t, checkout.invoiceId)).status).toBe('CANCELLED');
    expect(await ownSubscriptions(t, user.id)).toEqual([]);
  });

  it("a reloaded page gets the same QR again; another account's invoice answers 404 like an unknown one", async () => {
    const { headers } = await shopper(t);
    const checkout = await qpayCheckout(t, headers, PLAN_CODES.duo);
    const again = await t.app.inject({
      method: 'POST',
      url: `/api/payments/${encodeURIComponent(checkout.invoiceId)}/pay`,
      headers,
      payload: { method: 'qpay' },
    });
    expect(again.statusCode, again.body).toBe(200);
    expect(again.json()).toMatchObject({ invoiceId: checkout.invoiceId, qrText: checkout.qrText });
    const opened = await t.db
      .selectFrom('sandbox_qpay_invoices')
      .select('id')
      .where('sender_invoice_no', '=', qpaySenderInvoiceNo(checkout.invoiceId))
      .execute();
    expect(opened).toHaveLength(1);

    const other = await shopper(t);
    const url = `/api/payments/${encodeURIComponent(checkout.invoiceId)}`;
    // "Not yours" and "does not exist" answer alike, so invoice numbers cannot be probed.
    const unknown = await t.app.inject({ method: 'GET', url: '/api/payments/nope', headers });
    expect(unknown.statusCode).toBe(404);
    const others = await t.app.inject({ method: 'GET', url, headers: other.headers });
    expect(others.statusCode).toBe(404);
    expect(others.json()).toEqual(unknown.json());
    const pay = await t.app.inject({
      method: 'POST',
      url: `${url}/pay`,
      headers: other.headers,
      payload: { method: 'qpay' },
    });
    expect(pay.statusCode).toBe(404);
    expect(pay.json()).toEqual(unknown.json());
    expect((await t.app.inject({ method: 'GET', url })).statusCode).toBe(401);
  });

  it('keeps one QPay access token per process and renews it with the refresh token when it runs out', async () => {
    const count = async (kind: 'access' | 'refresh') =>
      (await t.db.selectFrom('sandbox_qpay_tokens').select('token').where('kind', '=', kind).execute())
        .length;
    await qpayCheckout(t, (await shopper(t)).headers, PLAN_CODES.premium);
    const before = { access: await count('access'), refresh: await count('refresh') };
    await qpayCheckout(t, (await shopper(t)).headers, PLAN_CODES.premium);
    await qpayCheckout(t, (await shopper(t)).headers, PLAN_CODES.duo);
    expect({ access: await count('access'), refresh: await count('refresh') }).toEqual(before);
    t.clock.advance(31 * 60_000);
    await qpayCheckout(t, (await shopper(t)).headers, PLAN_CODES.premium);
    expect({ access: await count('access'), refresh: await count('refresh') }).toEqual({
      access: before.access + 1,
      refresh: before.refresh,
    });
  });
});
