import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hashPassword } from '../../src/modules/accounts/secrets.js';
import { qpaySenderInvoiceNo } from '../../src/modules/premium/qpay-payments.js';
import { PLAN_CODES, shopper, withPlans } from '../helpers/factories.js';
import {
  openGatewayPage,
  ownSubscriptions,
  PAID_CARD,
  postGatewayForm,
  returnToShop,
  startCheckout,
  subscriber,
} from '../helpers/premium.js';
import { answerAtBank, type QpayAnswer, qpayCallback, runDue } from '../helpers/qpay-factories.js';
import { createTestApp, type TestApp } from '../helpers/test-app.js';

const HOUR = 3_600_000;
const DAY = 24 * HOUR;
let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({ PAYMENT_CHECK_INTERVAL_SECONDS: '0' });
  await withPlans(t);
});
afterAll(async () => {
  await t.close();
});

/** Moves the server clock with the development contract, as an outside test would. */
async function advanceTo(time: number) {
  const seconds = Math.ceil((time - t.clock.now().getTime()) / 1000);
  if (seconds <= 0) return;
  const moved = await t.app.inject({
    method: 'POST',
    url: '/dev/clock',
    payload: { advanceSeconds: seconds },
  });
  expect(moved.statusCode, moved.body).toBe(200);
}

/** Pays a card page like the shopper; answers the gateway's status (303 back to us, 409 when closed). */
async function payCardPage(pageUrl: URL) {
  const { page, token, formKey } = await openGatewayPage(t, pageUrl);
  if (page.statusCode !== 200) return page.statusCode;
  const paid = await postGatewayForm(t, 'pay', {
    token,
    form_key: formKey,
    card_number: PAID_CARD,
    expiry: '12/39',
    cvc: '123',
  });
  if (paid.statusCode === 303) await returnToShop(t, new URL(String(paid.headers.location)));
  return paid.statusCode;
}

/** What the ledger holds for an invoice, in order. */
const ledgerOf = (invoiceId: string) =>
  t.db
    .selectFrom('payment_ledger')
    .select(['entry', 'method', 'amount', 'outcome'])
    .where('invoice_id', '=', invoiceId)
    .orderBy('id')
    .execute();

/** Money an invoice kept: captures less refunds, in the ledger and at the sandboxes alike. */
async function netOf(invoiceId: string) {
  const rows = await ledgerOf(invoiceId);
  const ledger = rows.reduce(
    (sum, row) => sum + (row.entry === 'capture' ? row.amount : row.entry === 'refund' ? -row.amount : 0),
    0,
  );
  const card = await t.db
    .selectFrom('sandbox_gateway_payments')
    .select('amount')
    .where('invoice_id', '=', invoiceId)
    .where('status', '=', 'paid')
    .execute();
  const charges = await t.db
    .selectFrom('sandbox_gateway_charges')
    .select('amount')
    .where('invoice_id', '=', invoiceId)
    .where('status', '=', 'paid')
    .execute();
  const cardRefunds = await t.db
    .selectFrom('sandbox_gateway_refunds')
    .select('amount')
    .where('invoice_id', '=', invoiceId)
    .execute();
  const qpay = await t.db
    .selectFrom('sandbox_qpay_payments as p')
    .innerJoin('sandbox_qpay_invoices as i', 'i.id', 'p.invoice_id')
    .select(['p.amount', 'p.status'])
    .where('i.sender_invoice_no', '=', qpaySenderInvoiceNo(invoiceId))
    .execute();
  const sum = (rows: { amount: number | string }[]) =>
    rows.reduce((total, row) => total + Number(row.amount), 0);
  const providers =
    sum(card) + sum(charges) - sum(cardRefunds) + sum(qpay.filter((payment) => payment.status === 'PAID'));
  return { ledger, providers };
}

async function qpayOfInvoice(headers: Record<string, string>, invoiceId: string) {
  const response = await t.app.inject({
    method: 'POST',
    url: `/api/payments/${encodeURIComponent(invoiceId)}/pay`,
    headers,
    payload: { method: 'qpay' },
  });
  expect(response.statusCode, response.body).toBe(200);
  return response.json() as QpayAnswer;
}

async function messagesTo(userId: string) {
  const user = await t.db
    .selectFrom('users')
    .select(['phone_number', 'primary_email'])
    .where('id', '=', userId)
    .executeTakeFirstOrThrow();
  const to = user.primary_email ?? user.phone_number ?? '';
  const response = await t.app.inject({ method: 'GET', url: `/dev/outbox?to=${encodeURIComponent(to)}` });
  return (response.json() as { text: string }[]).map((message) => message.text);
}

describe('one capture per invoice', () => {
  it('card first: the QPay invoice is cancelled at QPay, so the bank app cannot pay it', async () => {
    const { user, headers } = await shopper(t);
    const { gatewayUrl, invoiceId } = await startCheckout(t, headers, PLAN_CODES.premium);
    const qpay = await qpayOfInvoice(headers, invoiceId);
    expect(await payCardPage(gatewayUrl)).toBe(303);
    const bank = await t.app.inject({ method: 'GET', url: new URL(qpay.deeplinks[0]?.link ?? '').pathname });
    expect(bank.statusCode).not.toBe(200);
    await runDue(t);
    expect(await ownSubscriptions(t, user.id)).toHaveLength(1);
    expect(await netOf(invoiceId)).toEqual({ ledger: 6900, providers: 6900 });
  });

  it('both paid before we heard of either: one period, the second payment refunded and the payer told', async () => {
    const { user, headers } = await shopper(t);
    const { gatewayUrl, invoiceId } = await startCheckout(t, headers, PLAN_CODES.premium);
    const qpay = await qpayOfInvoice(headers, invoiceId);
    // The card page is paid, but its callback is lost and the shopper never comes back...
    await t.db
      .updateTable('sandbox_gateway_payments')
      .set({ callback_url: null })
      .where('invoice_id', '=', invoiceId)
      .execute();
    const { token, formKey } = await openGatewayPage(t, gatewayUrl);
    const paid = await postGatewayForm(t, 'pay', {
      token,
      form_key: formKey,
      card_number: PAID_CARD,
      expiry: '12/39',
      cvc: '123',
    });
    expect(paid.statusCode).toBe(303);
    // ...while the QR on the screen is paid from a phone.
    await answerAtBank(t, qpay);
    await qpayCallback(t, invoiceId);
    await runDue(t);

    expect(await ownSubscriptions(t, user.id)).toHaveLength(1);
    expect(await netOf(invoiceId)).toEqual({ ledger: 6900, providers: 6900 });
    const ledger = await ledgerOf(invoiceId);
    expect(ledger.filter((row) => row.outcome === 'applied')).toHaveLength(1);
    expect(ledger.filter((row) => row.outcome === 'surplus')).toHaveLength(1);
    expect((await messagesTo(user.id)).some((text) => /refunded your payment/.test(text))).toBe(true);
    // The shopper who comes back late still lands on a page that says it is paid.
    expect(await returnToShop(t, new URL(String(paid.headers.location)))).toMatch(/^\/success\?/);
  });

  it('QPay first: the card page is closed at the gateway, so it cannot take a second payment', async () => {
    const { user, headers } = await shopper(t);
    const { gatewayUrl, invoiceId } = await startCheckout(t, headers, PLAN_CODES.premium);
    const qpay = await qpayOfInvoice(headers, invoiceId);
    await answerAtBank(t, qpay);
    await qpayCallback(t, invoiceId);
    expect(await payCardPage(gatewayUrl)).toBe(409);
    await runDue(t);
    expect(await ownSubscriptions(t, user.id)).toHaveLength(1);
    expect(await netOf(invoiceId)).toEqual({ ledger: 6900, providers: 6900 });
  });

  it('both pages paid at once, 10 times: each invoice keeps exactly its price, one period each', async () => {
    for (let round = 0; round < 10; round += 1) {
      const { user, headers } = await shopper(t);
      const { gatewayUrl, invoiceId } = await startCheckout(t, headers, PLAN_CODES.premium);
      const qpay = await qpayOfInvoice(headers, invoiceId);
      await Promise.allSettled([
        payCardPage(gatewayUrl),
        answerAtBank(t, qpay).then(() => qpayCallback(t, invoiceId)),
      ]);
      await runDue(t);
      expect(await ownSubscriptions(t, user.id)).toHaveLength(1);
      expect(await netOf(invoiceId)).toEqual({ ledger: 6900, providers: 6900 });
    }
  });
});

describe('a deleted account', () => {
  async function withPassword(userId: string) {
    const password = 'a long enough password';
    await t.db
      .updateTable('users')
      .set({ password_hash: await hashPassword(password) })
      .where('id', '=', userId)
      .execute();
    return password;
  }

  it('a card page paid after the account was deleted is refunded, saves no card and is never charged again', async () => {
    const { user, headers } = await shopper(t);
    const password = await withPassword(user.id);
    const { gatewayUrl, invoiceId } = await startCheckout(t, headers, PLAN_CODES.premium, { saveCard: true });
    await openGatewayPage(t, gatewayUrl);
    const removed = await t.app.inject({
      method: 'DELETE',
      url: '/api/users/me',
      headers,
      payload: { Password: password },
    });
    expect(removed.statusCode, removed.body).toBe(204);

    const status = await payCardPage(gatewayUrl);
    expect([303, 409]).toContain(status);
    await runDue(t);
    expect(await ownSubscriptions(t, user.id)).toEqual([]);
    expect(await t.db.selectFrom('saved_cards').selectAll().where('user_id', '=', user.id).execute()).toEqual(
      [],
    );
    expect(await netOf(invoiceId)).toEqual({ ledger: 0, providers: 0 });

    // Months later nothing has been charged, and the log lines written since keep no card details.
    await advanceTo(t.clock.now().getTime() + 65 * DAY);
    await runDue(t);
    const charges = await t.db
      .selectFrom('sandbox_gateway_charges as c')
      .innerJoin('payment_invoices as i', 'i.invoice_id', 'c.invoice_id')
      .select('c.amount')
      .where('i.user_id', '=', user.id)
      .execute();
    expect(charges).toEqual([]);
    const lines = await t.db
      .selectFrom('payment_logs')
      .select(['request', 'response'])
      .where('user_id', '=', user.id)
      .execute();
    expect(lines.every((line) => line.request === null && line.response === null)).toBe(true);
  });

  it('20 deletions of one account at once: one succeeds', async () => {
    const { user, headers } = await shopper(t);
    const password = await withPassword(user.id);
    const answers = await Promise.all(
      Array.from({ length: 20 }, () =>
        t.app.inject({ method: 'DELETE', url: '/api/users/me', headers, payload: { Password: password } }),
      ),
    );
    expect(answers.filter((answer) => answer.statusCode === 204)).toHaveLength(1);
    for (const answer of answers) expect([204, 401, 404, 429]).toContain(answer.statusCode);
  });
});

describe('a plan change belongs to its period', () => {
  it('an upgrade invoice from a period that has ended buys nothing and is refunded', async () => {
    const { user, headers, period } = await subscriber(t, PLAN_CODES.premium, PAID_CARD, { saveCard: false });
    const end = period.end_date.getTime();

    // Three days before the end the renewal link goes out; two hours before, an upgrade is asked for.
    await advanceTo(end - 3 * DAY + HOUR);
    await runDue(t);
    const renewal = await t.db
      .selectFrom('payment_invoices')
      .select('invoice_id')
      .where('user_id', '=', user.id)
      .where('kind', '=', 'renewal')
      .executeTakeFirstOrThrow();
    await advanceTo(end - 2 * HOUR);
    const asked = await t.app.inject({
      method: 'POST',
      url: `/api/subscriptions/${period.id}/change`,
      headers,
      payload: { MerchantCode: PLAN_CODES.family },
    });
    expect(asked.statusCode, asked.body).toBe(200);
    const upgrade = asked.json() as { status: string; url: string; invoiceId: string; amount: number };
    expect(upgrade.status).toBe('payment_required');
    expect(upgrade.amount).toBeLessThan(100);

    // The renewal is paid; the period turns; then the old upgrade page is paid.
    const renewalPage = await t.app.inject({
      method: 'POST',
      url: `/api/payments/${encodeURIComponent(renewal.invoice_id)}/pay`,
      headers,
      payload: { method: 'card' },
    });
    expect(renewalPage.statusCode, renewalPage.body).toBe(200);
    expect(await payCardPage(new URL(renewalPage.json().url))).toBe(303);
    await advanceTo(end + HOUR);
    const status = await payCardPage(new URL(upgrade.url));
    expect([303, 409]).toContain(status);
    await runDue(t);

    const [subscription] = await ownSubscriptions(t, user.id);
    const plan = await t.db
      .selectFrom('packages')
      .select('merchant_code')
      .where('id', '=', subscription?.package_id ?? -1)
      .executeTakeFirstOrThrow();
    expect(plan.merchant_code).toBe(PLAN_CODES.premium);
    expect(await netOf(upgrade.invoiceId)).toEqual({ ledger: 0, providers: 0 });
    const closed = await t.db
      .selectFrom('payment_invoices')
      .select('status')
      .where('invoice_id', '=', upgrade.invoiceId)
      .executeTakeFirstOrThrow();
    expect(closed.status).not.toBe('paid');
  });

  it('an upgrade invoice left unpaid expires when its period ends', async () => {
    const { headers, period } = await subscriber(t, PLAN_CODES.premium, PAID_CARD, { saveCard: false });
    await advanceTo(period.end_date.getTime() - 2 * HOUR);
    const asked = await t.app.inject({
      method: 'POST',
      url: `/api/subscriptions/${period.id}/change`,
      headers,
      payload: { MerchantCode: PLAN_CODES.family },
    });
    const upgrade = asked.json() as { invoiceId: string; url: string };
    await advanceTo(period.end_date.getTime() + 5 * 60_000);
    await runDue(t);
    const invoice = await t.db
      .selectFrom('payment_invoices')
      .select('status')
      .where('invoice_id', '=', upgrade.invoiceId)
      .executeTakeFirstOrThrow();
    expect(invoice.status).toBe('expired');
    expect(await payCardPage(new URL(upgrade.url))).toBe(409);
  });
});
