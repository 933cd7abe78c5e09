import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auditEntries, consoleCall, refundCall, signedInOperator } from '../helpers/console.js';
import { runDueAt } from '../helpers/dev-clock.js';
import { PLAN_CODES, STORE, withPlans } from '../helpers/factories.js';
import { ownSubscriptions, subscriber } from '../helpers/premium.js';
import { qpaySubscriber, runDue, sandboxQpayInvoiceOf } from '../helpers/qpay-factories.js';
import { createTestApp, type TestApp } from '../helpers/test-app.js';

/** console/refunds.ts: an operator's refund by amount, once, at the payment's provider. */

let t: TestApp;
let admin: { cookie: string };
beforeAll(async () => {
  t = await createTestApp();
  await withPlans(t);
  admin = await signedInOperator(t, 'admin');
});
afterAll(async () => {
  await t.close();
});

const invoiceOf = (invoiceId: string) =>
  t.db
    .selectFrom('payment_invoices')
    .select(['status', 'amount'])
    .where('invoice_id', '=', invoiceId)
    .executeTakeFirstOrThrow();
const ledgerRefunds = (invoiceId: string) =>
  t.db
    .selectFrom('payment_ledger')
    .selectAll()
    .where('invoice_id', '=', invoiceId)
    .where('entry', '=', 'refund')
    .execute();
const gatewayRefunds = (invoiceId: string) =>
  t.db.selectFrom('sandbox_gateway_refunds').selectAll().where('invoice_id', '=', invoiceId).execute();
const hasAccess = async (userId: string) => {
  const answer = await t.app.inject({
    method: 'GET',
    url: `/api/users/${userId}/profile`,
    headers: { ...STORE, ...(await t.authHeader(userId)) },
  });
  return (answer.json() as { Subscriptions: unknown[] }).Subscriptions.length > 0;
};

describe('card refunds from the console', () => {
  it('a partial refund keeps access, marks the payment partly refunded and answers the amount', async () => {
    const buyer = await subscriber(t);
    const { amount: paid } = await invoiceOf(buyer.invoiceId);
    const answer = await refundCall(t, admin.cookie, buyer.invoiceId, { amount: 1000, reason: 'Outage' });
    expect(answer.statusCode, answer.body).toBe(200);
    expect(answer.json()).toMatchObject({
      invoiceId: buyer.invoiceId,
      amount: 1000,
      currency: 'MNT',
      status: 'partly_refunded',
      remaining: paid - 1000,
      receipt: { reissued: false },
    });
    expect((await invoiceOf(buyer.invoiceId)).status).toBe('partly_refunded');
    expect(await hasAccess(buyer.user.id)).toBe(true);
    expect(await ledgerRefunds(buyer.invoiceId)).toEqual([
      expect.objectContaining({ method: 'card', amount: 1000, reason: 'Outage' }),
    ]);
    expect(await gatewayRefunds(buyer.invoiceId)).toEqual([
      expect.objectContaining({ amount: 1000, reference: 'session' }),
    ]);
    const entries = await auditEntries(t, admin.cookie, 'payment.refund');
    expect(entries.find((entry) => entry.targetId === buyer.invoiceId)?.after).toMatchObject({
      amount: 1000,
      status: 'partly_refunded',
    });
  });

  it('a second partial refund up to the rest marks it refunded and ends access', async () => {
    const buyer = await subscriber(t);
    const { amount: paid } = await invoiceOf(buyer.invoiceId);
    expect((await refundCall(t, admin.cookie, buyer.invoiceId, { amount: 2500 })).statusCode).toBe(200);
    const rest = await refundCall(t, admin.cookie, buyer.invoiceId);
    expect(rest.statusCode, rest.body).toBe(200);
    expect(rest.json()).toMatchObject({ amount: paid - 2500, status: 'refunded', remaining: 0 });
    expect((await invoiceOf(buyer.invoiceId)).status).toBe('refunded');
    const [period] = await ownSubscriptions(t, buyer.user.id);
    expect(period?.end_date.getTime()).toBeLessThanOrEqual(t.clock.now().getTime());
    expect(await hasAccess(buyer.user.id)).toBe(false);
    const atGateway = await gatewayRefunds(buyer.invoiceId);
    expect(atGateway.reduce((sum, row) => sum + row.amount, 0)).toBe(paid);
    const detail = await consoleCall(t, admin.cookie, 'GET', `/api/admin/users/${buyer.user.id}`);
    expect(detail.json()).toMatchObject({
      payments: [
        { invoiceId: buyer.invoiceId, status: 'refunded', refunded: paid, refundedAt: expect.any(String) },
      ],
    });
    const again = await refundCall(t, admin.cookie, buyer.invoiceId, { amount: 1 });
    expect(again.statusCode).toBe(409);
    expect(again.json()).toMatchObject({ error: 'already_refunded' });
  });

  it('refuses to refund more than is left, and changes nothing', async () => {
    const buyer = await subscriber(t);
    const { amount: paid } = await invoiceOf(buyer.invoiceId);
    const answer = await refundCall(t, admin.cookie, buyer.invoiceId, { amount: paid + 1 });
    expect(answer.statusCode, answer.body).toBe(409);
    expect(answer.json()).toMatchObject({ error: 'refund_too_large' });
    expect((await invoiceOf(buyer.invoiceId)).status).toBe('paid');
    expect(await ledgerRefunds(buyer.invoiceId)).toEqual([]);
    expect(await gatewayRefunds(buyer.invoiceId)).toEqual([]);
    expect(await hasAccess(buyer.user.id)).toBe(true);
    // The claim was let go: a refund within what was paid goes through.
    expect((await refundCall(t, admin.cookie, buyer.invoiceId, { amount: paid })).statusCode).toBe(200);
  });

  it('30 refunds of one payment at once: one is made, at the gateway and in the ledger', async () => {
    const buyer = await subscriber(t);
    const answers = await Promise.all(
      Array.from({ length: 30 }, () => refundCall(t, admin.cookie, buyer.invoiceId)),
    );
    const statuses = answers.map((answer) => answer.statusCode);
    expect(statuses.filter((status) => status === 200)).toHaveLength(1);
    expect(statuses.filter((status) => status === 409)).toHaveLength(29);
    for (const refused of answers.filter((answer) => answer.statusCode === 409)) {
      expect(['refund_in_progress', 'already_refunded']).toContain(refused.json().error);
    }
    expect(await gatewayRefunds(buyer.invoiceId)).toHaveLength(1);
    expect(await ledgerRefunds(buyer.invoiceId)).toHaveLength(1);
    const entries = await auditEntries(t, admin.cookie, 'payment.refund');
    expect(entries.filter((entry) => entry.targetId === buyer.invoiceId)).toHaveLength(1);
  });

  it('a refund the gateway took before its process died is finished by the next ask, once', async () => {
    const buyer = await subscriber(t);
    const [capture] = await t.db
      .selectFrom('payment_ledger')
      .select(['id', 'amount'])
      .where('invoice_id', '=', buyer.invoiceId)
      .where('entry', '=', 'capture')
      .execute();
    if (!capture) throw new Error('the purchase has no capture');
    const refundId = `operator:${randomUUID()}`;
    const operator = await t.db.selectFrom('operators').select('id').limit(1).executeTakeFirstOrThrow();
    await t.db
      .insertInto('payment_refunds')
      .values({
        refund_id: refundId,
        invoice_id: buyer.invoiceId,
        capture_id: capture.id,
        amount: 700,
        currency: 'MNT',
        reason: 'Interrupted',
        status: 'pending',
        operator_id: operator.id,
        created_at: new Date(t.clock.now().getTime() - 3 * 60_000),
      })
      .execute();
    await t.deps.paymentGateway.refund({
      invoiceId: buyer.invoiceId,
      amount: 700,
      currency: 'MNT',
      refundId,
      reference: 'session',
    });
    const answer = await refundCall(t, admin.cookie, buyer.invoiceId);
    expect(answer.statusCode, answer.body).toBe(200);
    expect(answer.json()).toMatchObject({
      amount: 700,
      status: 'partly_refunded',
      remaining: capture.amount - 700,
    });
    expect(await gatewayRefunds(buyer.invoiceId)).toHaveLength(1);
    expect(await ledgerRefunds(buyer.invoiceId)).toEqual([expect.objectContaining({ reference: refundId })]);
  });
});

describe('QPay refunds from the console', () => {
  it('refunds a QPay payment whole, which QPay then reports as refunded; a part is refused', async () => {
    const buyer = await qpaySubscriber(t, PLAN_CODES.premium);
    const { amount: paid } = await invoiceOf(buyer.invoiceId);
    const part = await refundCall(t, admin.cookie, buyer.invoiceId, { amount: paid - 1 });
    expect(part.statusCode, part.body).toBe(409);
    expect(part.json()).toMatchObject({ error: 'qpay_whole_only' });

    const answer = await refundCall(t, admin.cookie, buyer.invoiceId);
    expect(answer.statusCode, answer.body).toBe(200);
    expect(answer.json()).toMatchObject({ amount: paid, status: 'refunded', remaining: 0 });
    expect(await hasAccess(buyer.user.id)).toBe(false);
    const { qpay } = t.deps;
    const qpayInvoice = await sandboxQpayInvoiceOf(t, buyer.invoiceId);
    const check = await qpay.checkPayment(qpayInvoice.id);
    expect(check.result.rows).toEqual([expect.objectContaining({ status: 'REFUND', amount: paid })]);
    expect(await ledgerRefunds(buyer.invoiceId)).toEqual([
      expect.objectContaining({ method: 'qpay', amount: paid }),
    ]);
  });

  it("QPay's refund gives a paid payment back once under a burst, and refuses an unknown or unpaid one", async () => {
    const buyer = await qpaySubscriber(t, PLAN_CODES.premium);
    const qpayInvoice = await sandboxQpayInvoiceOf(t, buyer.invoiceId);
    const [payment] = await t.db
      .selectFrom('sandbox_qpay_payments')
      .select('payment_id')
      .where('invoice_id', '=', qpayInvoice.id)
      .execute();
    const basic = Buffer.from(`${t.config.QPAY_CLIENT_ID}:${t.config.QPAY_CLIENT_SECRET}`).toString('base64');
    const token = await t.app.inject({
      method: 'POST',
      url: '/sandbox-qpay/v2/auth/token',
      headers: { authorization: `Basic ${basic}` },
    });
    const bearer = { authorization: `Bearer ${(token.json() as { access_token: string }).access_token}` };
    const refund = (paymentId: string) =>
      t.app.inject({
        method: 'DELETE',
        url: `/sandbox-qpay/v2/payment/refund/${paymentId}`,
        headers: bearer,
        payload: { note: 'Butsaalt' },
      });
    const answers = await Promise.all(Array.from({ length: 10 }, () => refund(payment?.payment_id ?? '')));
    expect(answers.filter((answer) => answer.statusCode === 200)).toHaveLength(1);
    expect(answers.filter((answer) => answer.statusCode === 400)).toHaveLength(9);
    expect(answers.find((answer) => answer.statusCode === 400)?.json()).toMatchObject({
      error: 'PAYMENT_ALREADY_CANCELED',
    });
    // QPay answers a missing object with 422 (error.py NOT_FOUND_ERROR).
    expect((await refund(randomUUID())).statusCode).toBe(422);
    // The adapter takes "already given back" as done, so a retry after a lost answer is safe.
    await expect(t.deps.qpay.refundPayment(payment?.payment_id ?? '')).resolves.toMatchObject({
      result: null,
    });
  });
});

describe("a refunded payment's e-barimt", () => {
  const receiptsOf = (invoiceId: string) =>
    t.db
      .selectFrom('ebarimt_receipts as r')
      .leftJoin('sandbox_ebarimt_receipts as s', 's.id', 'r.bill_id')
      .select(['r.kind', 'r.status', 's.voided'])
      .where('r.invoice_id', '=', invoiceId)
      .execute();

  it('a fully refunded card payment ends with its citizen receipt voided at the tax authority', async () => {
    const buyer = await subscriber(t);
    await runDue(t);
    expect(await receiptsOf(buyer.invoiceId)).toEqual([{ kind: 'citizen', status: 'issued', voided: false }]);
    const answer = await refundCall(t, admin.cookie, buyer.invoiceId);
    expect(answer.json()).toMatchObject({ status: 'refunded', receipt: { voided: true, reissued: false } });
    await runDue(t);
    expect(await receiptsOf(buyer.invoiceId)).toEqual([{ kind: 'citizen', status: 'voided', voided: true }]);
  });

  it("a company's receipt is voided the same way", async () => {
    const buyer = await qpaySubscriber(t, PLAN_CODES.premium, { ebarimtRegistry: '1234567' });
    await runDue(t);
    expect(await receiptsOf(buyer.invoiceId)).toEqual([{ kind: 'company', status: 'issued', voided: false }]);
    expect((await refundCall(t, admin.cookie, buyer.invoiceId)).statusCode).toBe(200);
    await runDue(t);
    expect(await receiptsOf(buyer.invoiceId)).toEqual([{ kind: 'company', status: 'voided', voided: true }]);
  });

  it('a receipt not issued yet when the payment is refunded is never issued', async () => {
    const buyer = await subscriber(t);
    expect((await refundCall(t, admin.cookie, buyer.invoiceId)).statusCode).toBe(200);
    await runDue(t);
    expect(await receiptsOf(buyer.invoiceId)).toEqual([
      { kind: 'citizen', status: 'superseded', voided: null },
    ]);
  });
});

describe('a whole refund of one period among several', () => {
  const renewalsOf = (subscriptionId: string) =>
    t.db
      .selectFrom('payment_invoices')
      .select(['invoice_id', 'status', 'period_start', 'period_end', 'settled_at'])
      .where('subscription_id', '=', subscriptionId)
      .where('kind', '=', 'renewal')
      .orderBy('period_start')
      .execute();

  // Found by the billing model (seed -848720429): two months' renewals, charged in one run of the
  // due jobs, were settled at the same instant, and a whole refund of the earlier one ended the
  // subscription that the later one had paid for (the later one was found by settlement time).
  it('of an earlier renewal settled with the later one leaves the later period running; of the later one ends it', async () => {
    const buyer = await subscriber(t, PLAN_CODES.premium, undefined, { saveCard: true });
    const twoMonthsOn = new Date(buyer.period.end_date);
    twoMonthsOn.setUTCMonth(twoMonthsOn.getUTCMonth() + 1);
    await runDueAt(t, twoMonthsOn.getTime() + 86_400_000);
    // The clock stands still: each run renews the month that is due, at the same instant.
    for (let run = 0; run < 3 && (await renewalsOf(buyer.period.id)).length < 2; run++) await runDue(t);
    const [earlier, later] = await renewalsOf(buyer.period.id);
    expect([earlier?.status, later?.status]).toEqual(['paid', 'paid']);
    expect(earlier?.settled_at).toEqual(later?.settled_at);

    // Two months on, the operator signs in again (the console's session has ended).
    const operator = await signedInOperator(t, 'admin');
    const first = await refundCall(t, operator.cookie, earlier?.invoice_id ?? '');
    expect(first.statusCode, first.body).toBe(200);
    const [kept] = await ownSubscriptions(t, buyer.user.id);
    expect(kept).toMatchObject({ end_date: later?.period_end, is_auto_renew: true, cancelled_at: null });
    expect(await hasAccess(buyer.user.id)).toBe(true);

    const second = await refundCall(t, operator.cookie, later?.invoice_id ?? '');
    expect(second.statusCode, second.body).toBe(200);
    const [ended] = await ownSubscriptions(t, buyer.user.id);
    expect(ended).toMatchObject({ end_date: t.clock.now(), is_auto_renew: false, next_billing_at: null });
    expect(await hasAccess(buyer.user.id)).toBe(false);
  });
});
