import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addMonths } from '../../src/modules/premium/period.js';
import { consoleCall, signedInOperator } from '../helpers/console.js';
import { runDueAt } from '../helpers/dev-clock.js';
import { PLAN_CODES, shopper, siteHeaders, withPlans } from '../helpers/factories.js';
import {
  checkout,
  ownSubscriptions,
  PAID_CARD,
  paymentLog,
  payOnGateway,
  returnToShop,
  subscriber,
} from '../helpers/premium.js';
import { answerAtBank, qpaySubscriber } from '../helpers/qpay-factories.js';
import { createTestApp, type TestApp } from '../helpers/test-app.js';
import { makeOffer, uniqueCode } from './offer-helpers.js';

/** An offer's N periods through the renewal job with the development clock, its receipts and the dashboard. */
let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
  await withPlans(t);
});
afterAll(async () => {
  await t.close();
});

/** Moves the server clock (development contract) and runs what is due. */
const at = (time: number) => runDueAt(t, time);

describe('an offer for 3 periods', () => {
  it('prices the purchase and two renewals with the discount, then the full price; receipts and dashboard show it', async () => {
    const admin = (await signedInOperator(t, 'admin')).cookie;
    const code = uniqueCode('THREE');
    await makeOffer(t, admin, { code, kind: 'amount', value: 2900, periods: 3, audience: 'new' });
    const buyer = await shopper(t);
    const started = await checkout(t, buyer.headers, { MerchantCode: PLAN_CODES.premium, OfferCode: code });
    expect(started.statusCode, started.body).toBe(200);
    const { url, invoiceId } = started.json() as { url: string; invoiceId: string };
    await returnToShop(t, await payOnGateway(t, new URL(url), PAID_CARD));
    const [period] = await ownSubscriptions(t, buyer.user.id);
    if (!period) throw new Error('the purchase did not activate');

    const billing = async () =>
      (await t.app.inject({ method: 'GET', url: '/api/users/me/billing', headers: buyer.headers })).json();
    expect((await billing()).offer).toEqual({
      code,
      kind: 'amount',
      value: 2900,
      periodsLeft: 2,
      nextAmount: 4000,
    });

    let end = period.end_date.getTime();
    const left: number[] = [];
    for (let month = 1; month <= 3; month++) {
      await at(end - 3 * 86_400_000 + 60_000);
      await at(end + 60_000);
      await at(end + 60_000);
      const [renewed] = await ownSubscriptions(t, buyer.user.id);
      expect(renewed?.end_date.toISOString()).toBe(addMonths(new Date(end), 1).toISOString());
      end = renewed?.end_date.getTime() ?? 0;
      const { offer, renewal } = await billing();
      left.push(offer.periodsLeft);
      expect(renewal.amount).toBe(offer.nextAmount);
    }
    expect(left).toEqual([1, 0, 0]);
    // Each reminder names what the card will be charged.
    const outbox = await t.app.inject({ method: 'GET', url: `/dev/outbox?to=${buyer.user.phone_number}` });
    const reminders = (outbox.json() as { text: string }[])
      .reverse()
      .map((message) => message.text)
      .filter((text) => text.startsWith('Your Premium renews on'));
    expect(reminders.map((text) => /charge \D*([\d,]+)/.exec(text)?.[1])).toEqual([
      '4,000',
      '4,000',
      '6,900',
    ]);

    const payments = await t.app.inject({
      method: 'GET',
      url: '/api/users/me/payments',
      headers: buyer.headers,
    });
    const history = (payments.json() as { invoiceId: string; kind: string; status: string; amount: number }[])
      .slice()
      .reverse();
    expect(history.map((payment) => [payment.kind, payment.status, payment.amount])).toEqual([
      ['purchase', 'paid', 4000],
      ['renewal', 'paid', 4000],
      ['renewal', 'paid', 4000],
      ['renewal', 'paid', 6900],
    ]);
    // What the card was charged for each renewal: the discount twice, then the full price.
    const charges = await t.db
      .selectFrom('sandbox_gateway_charges')
      .select(['invoice_id', 'amount'])
      .where(
        'invoice_id',
        'in',
        history.slice(1).map((payment) => payment.invoiceId),
      )
      .where('status', '=', 'paid')
      .execute();
    const charged = new Map(charges.map((charge) => [charge.invoice_id, Number(charge.amount)]));
    expect(history.slice(1).map((payment) => charged.get(payment.invoiceId))).toEqual([4000, 4000, 6900]);

    // The e-barimt shows the discount: the item at the plan's price, its total what was paid.
    const receiptItem = async (id: string) => {
      const logged = (await paymentLog(t, id)).find(
        (line) => line.current_process === 'ebarimt' && line.type === 'info',
      );
      const body = (logged?.request as { body: { receipts: { items: unknown[] }[] } } | null)?.body;
      return body?.receipts[0]?.items[0];
    };
    expect(await receiptItem(invoiceId)).toMatchObject({ unitPrice: 6900, totalAmount: 4000 });
    expect(await receiptItem(history[1]?.invoiceId ?? '')).toMatchObject({
      unitPrice: 6900,
      totalAmount: 4000,
    });
    expect(await receiptItem(history[3]?.invoiceId ?? '')).toMatchObject({
      unitPrice: 6900,
      totalAmount: 6900,
    });

    const dashboard = await consoleCall(
      t,
      (await signedInOperator(t, 'admin')).cookie,
      'GET',
      '/api/admin/dashboard?days=365',
    );
    expect(dashboard.statusCode, dashboard.body).toBe(200);
    const figures = dashboard.json() as {
      revenueByOffer: { code: string; amount: number; redemptions: number }[];
      revenueByPlan: { MerchantCode: string; name: string; amount: number }[];
    };
    expect(figures.revenueByOffer).toContainEqual({ code, amount: 12_000, redemptions: 1 });
    const premium = figures.revenueByPlan.find((row) => row.MerchantCode === PLAN_CODES.premium);
    expect(premium?.amount).toBeGreaterThanOrEqual(12_000 + 6900);
  }, 120_000);

  it('prices an upgrade within an offer period with the discount on both plans', async () => {
    const admin = (await signedInOperator(t, 'admin')).cookie;
    const code = uniqueCode('UPHALF');
    await makeOffer(t, admin, { code, value: 50, periods: 2 });
    const preview = async (headers: Record<string, string>, subscriptionId: string) => {
      const answer = await t.app.inject({
        method: 'GET',
        url: `/api/subscriptions/${subscriptionId}/plan-change/preview?plan=${PLAN_CODES.family}`,
        headers,
      });
      expect(answer.statusCode, answer.body).toBe(200);
      return (answer.json() as { kind: string; amount: number }).amount;
    };
    const full = await subscriber(t);
    const buyer = await shopper(t);
    const started = await checkout(t, buyer.headers, { MerchantCode: PLAN_CODES.premium, OfferCode: code });
    expect(started.statusCode, started.body).toBe(200);
    await returnToShop(t, await payOnGateway(t, new URL((started.json() as { url: string }).url), PAID_CARD));
    const [period] = await ownSubscriptions(t, buyer.user.id);
    const fullAmount = await preview(full.headers, full.period.id);
    const offered = await preview(buyer.headers, period?.id ?? '');
    expect(fullAmount).toBeGreaterThan(0);
    expect(Math.abs(offered - fullAmount / 2)).toBeLessThanOrEqual(1);
  });

  it('prices a QPay purchase and its renewal link with the discount, and the QPay payment of the link', async () => {
    const admin = (await signedInOperator(t, 'admin')).cookie;
    const code = uniqueCode('QPAY');
    await makeOffer(t, admin, { code, value: 10, periods: 2 });
    const buyer = await qpaySubscriber(t, PLAN_CODES.premium, { OfferCode: code.toLowerCase() });
    expect(buyer.checkout.amount).toBe(6210);
    const [period] = await ownSubscriptions(t, buyer.user.id);
    if (!period) throw new Error('the QPay purchase did not activate');
    await at(period.end_date.getTime() - 3 * 86_400_000 + 60_000);
    const outbox = await t.app.inject({ method: 'GET', url: `/dev/outbox?to=${buyer.user.phone_number}` });
    const reminder = (outbox.json() as { text: string; link: string | null }[]).find(
      (message) => message.link,
    );
    expect(reminder?.text).toContain('6,210');
    const renewal = await t.db
      .selectFrom('payment_invoices')
      .select(['invoice_id', 'amount', 'discount'])
      .where('user_id', '=', buyer.user.id)
      .where('kind', '=', 'renewal')
      .executeTakeFirstOrThrow();
    expect(renewal).toMatchObject({ amount: 6210, discount: 690 });
    const pay = await t.app.inject({
      method: 'POST',
      url: `/api/payments/${encodeURIComponent(renewal.invoice_id)}/pay`,
      headers: await siteHeaders(t, buyer.user.id),
      payload: { method: 'qpay' },
    });
    expect(pay.statusCode, pay.body).toBe(200);
    expect((pay.json() as { amount: number }).amount).toBe(6210);
    await answerAtBank(t, pay.json(), true, 2);
    const [renewed] = await ownSubscriptions(t, buyer.user.id);
    expect(renewed?.end_date.getTime()).toBeGreaterThan(period.end_date.getTime());
    const billing = await t.app.inject({
      method: 'GET',
      url: '/api/users/me/billing',
      headers: await siteHeaders(t, buyer.user.id),
    });
    // Both periods of the offer are used: the next renewal is at the full price.
    expect(billing.json()).toMatchObject({ offer: { code, periodsLeft: 0, nextAmount: 6900 } });
  });
});
