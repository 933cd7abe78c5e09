import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addMonths } from '../../src/modules/premium/period.js';
import { runDueAt } from '../helpers/dev-clock.js';
import { PLAN_CODES, STORE, withPlans } from '../helpers/factories.js';
import {
  FAILS_LATER_CARD,
  ownSubscriptions,
  PAID_CARD,
  payOnGateway,
  returnToShop,
  subscriber,
} from '../helpers/premium.js';
import { createTestApp, type TestApp } from '../helpers/test-app.js';

const DAY = 86_400_000;
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
const ranCount = (run: Awaited<ReturnType<typeof at>>, job: string) =>
  run.ran.find((kind) => kind.name === job)?.count ?? 0;

async function messagesTo(msisdn: string) {
  const response = await t.app.inject({ method: 'GET', url: `/dev/outbox?to=${msisdn}` });
  return (response.json() as { text: string; link: string | null }[]).reverse();
}

async function history(headers: Record<string, string>) {
  const response = await t.app.inject({ method: 'GET', url: '/api/users/me/payments', headers });
  expect(response.statusCode, response.body).toBe(200);
  return response.json() as {
    invoiceId: string;
    kind: string;
    status: string;
    amount: number;
    receipt: { url: string } | null;
  }[];
}

function paidCharges(invoiceIds: string[]) {
  return t.db
    .selectFrom('sandbox_gateway_charges')
    .select(['invoice_id', 'status'])
    .where('invoice_id', 'in', invoiceIds)
    .where('status', '=', 'paid')
    .execute();
}

describe('renewal with a saved card', () => {
  it('walks 13 months: 12 renewals charged once each, 12 reminders, 13 paid invoices with receipts', async () => {
    const { user, headers, period } = await subscriber(t);
    const msisdn = user.phone_number ?? '';
    let end = period.end_date.getTime();
    for (let month = 1; month <= 12; month++) {
      const reminded = await at(end - 3 * DAY + 60_000);
      expect(ranCount(reminded, 'billing.remind')).toBe(1);
      // A second run at the same instant (a duplicated job) changes nothing: the reminder's
      // statement recorded that this period's reminder went out, so none is due.
      expect(ranCount(await at(end - 3 * DAY + 60_000), 'billing.remind')).toBe(0);
      await at(end + 60_000);
      await at(end + 60_000);
      const [renewed] = await ownSubscriptions(t, user.id);
      expect(renewed?.end_date.toISOString()).toBe(addMonths(new Date(end), 1).toISOString());
      end = renewed?.end_date.getTime() ?? 0;
    }

    const payments = await history(headers);
    expect(payments).toHaveLength(13);
    expect(payments.every((payment) => payment.status === 'paid' && payment.receipt !== null)).toBe(true);
    expect(payments.filter((payment) => payment.kind === 'renewal')).toHaveLength(12);
    const renewals = payments
      .filter((payment) => payment.kind === 'renewal')
      .map((payment) => payment.invoiceId);
    expect(await paidCharges(renewals)).toHaveLength(12);

    const texts = (await messagesTo(msisdn)).map((message) => message.text);
    expect(texts.filter((text) => text.startsWith('Your Premium renews on'))).toHaveLength(12);
    expect(texts.filter((text) => text.startsWith('Your Premium renewed'))).toHaveLength(12);

    const receipt = await t.app.inject({
      method: 'GET',
      url: `/api/users/me/receipts/${encodeURIComponent(renewals[0] ?? '')}`,
      headers,
    });
    expect(receipt.statusCode, receipt.body).toBe(200);
    expect(receipt.json()).toMatchObject({
      kind: 'renewal',
      amount: 6900,
      vat: 627,
      card: { last4: '4242' },
    });
  }, 120_000);
});

describe('a card that fails', () => {
  it('is retried after 1, 3 and 5 days with access kept, then the period lapses, with a message each time', async () => {
    const { user, headers, period } = await subscriber(t, PLAN_CODES.premium, FAILS_LATER_CARD);
    const end = period.end_date.getTime();
    const profile = async () =>
      (
        await t.app.inject({
          method: 'GET',
          url: `/api/users/${user.id}/profile`,
          headers: { ...STORE, ...(await t.authHeader(user.id)) },
        })
      ).json() as { Subscriptions: unknown[] };

    for (const [offset, attempts] of [
      [0, 1],
      [1, 2],
      [3, 3],
    ] as const) {
      await at(end + offset * DAY + 60_000);
      const [state] = await ownSubscriptions(t, user.id);
      expect(state).toMatchObject({ renewal_attempts: attempts, is_auto_renew: true });
      expect((await profile()).Subscriptions).toHaveLength(1);
      const billing = await t.app.inject({ method: 'GET', url: '/api/users/me/billing', headers });
      expect(billing.json().renewal.failedRenewal).toMatchObject({ attempts });
    }
    await at(end + 5 * DAY + 60_000);
    const [lapsed] = await ownSubscriptions(t, user.id);
    expect(lapsed).toMatchObject({ is_auto_renew: false, next_billing_at: null, grace_until: null });
    expect((await profile()).Subscriptions).toEqual([]);

    const texts = (await messagesTo(user.phone_number ?? '')).map((message) => message.text);
    expect(texts.filter((text) => text.startsWith('We could not charge'))).toHaveLength(3);
    expect(texts.filter((text) => text.startsWith('Your Premium has ended'))).toHaveLength(1);
    // Its "pay now" page stays payable a day past the last retry, then the invoice expires.
    expect((await history(headers))[0]).toMatchObject({ kind: 'renewal', status: 'created', receipt: null });
    await at(end + 6 * DAY + 120_000);
    const [renewal] = await history(headers);
    expect(renewal).toMatchObject({ kind: 'renewal', status: 'expired', receipt: null });
    expect(await paidCharges([renewal?.invoiceId ?? ''])).toEqual([]);
  }, 60_000);

  it('renews on a retry once the card works again', async () => {
    const { user, period } = await subscriber(t, PLAN_CODES.premium, FAILS_LATER_CARD);
    const end = period.end_date.getTime();
    await at(end + 60_000);
    expect((await ownSubscriptions(t, user.id))[0]).toMatchObject({ renewal_attempts: 1 });
    // The bank lifts its block: the sandbox card now pays.
    await t.db
      .updateTable('sandbox_gateway_cards')
      .set({ card_number: '4242424242424242' })
      .where('card_number', '=', '4000000000000341')
      .execute();
    await at(end + DAY + 60_000);
    const [renewed] = await ownSubscriptions(t, user.id);
    expect(renewed).toMatchObject({ renewal_attempts: 0, grace_until: null, is_auto_renew: true });
    expect(renewed?.end_date.toISOString()).toBe(addMonths(new Date(end), 1).toISOString());
  }, 60_000);
});

describe('without a saved card', () => {
  it('sends the renewal link 3 days before the end; paying it renews the period', async () => {
    const { user, period } = await subscriber(t, PLAN_CODES.premium, undefined, { saveCard: false });
    const end = period.end_date.getTime();
    await at(end - 3 * DAY + 60_000);
    const [reminder] = (await messagesTo(user.phone_number ?? '')).filter((message) =>
      message.text.startsWith('Your Premium ends on'),
    );
    expect(reminder?.link).toContain('/sandbox-gateway/payment?token=');
    // The date reads as words, not as an ISO date, on the day Ulaanbaatar (UTC+8) counts: from
    // 16:00 UTC on, that is the next UTC day.
    const there = new Date(end + 8 * 3_600_000);
    const month = there.toLocaleString('en-US', { month: 'long', timeZone: 'UTC' });
    expect(reminder?.text).toContain(`ends on ${month} ${there.getUTCDate()}, ${there.getUTCFullYear()}.`);
    expect(reminder?.text).not.toMatch(/\d{4}-\d{2}-\d{2}/);
    const back = await returnToShop(t, await payOnGateway(t, new URL(reminder?.link ?? ''), PAID_CARD));
    expect(back).toMatch(/^\/success/);
    const [renewed] = await ownSubscriptions(t, user.id);
    expect(renewed?.end_date.toISOString()).toBe(addMonths(new Date(end), 1).toISOString());
  }, 60_000);

  it('tells a Mongolian subscriber the end date in Mongolian words and numbers', async () => {
    const { user, period } = await subscriber(t, PLAN_CODES.premium, undefined, { saveCard: false });
    await t.db.updateTable('users').set({ language: 'mn' }).where('id', '=', user.id).execute();
    const end = period.end_date;
    await at(end.getTime() - 3 * DAY + 60_000);
    // The purchase's own message (welcome, with its receipt) came first.
    const [reminder] = (await messagesTo(user.phone_number ?? '')).filter((message) =>
      message.text.includes('дуусна'),
    );
    // The day as Ulaanbaatar (UTC+8) counts it.
    const there = new Date(end.getTime() + 8 * 3_600_000);
    const date = `${there.getUTCFullYear()} оны ${there.getUTCMonth() + 1}-р сарын ${there.getUTCDate()}`;
    expect(reminder?.text).toContain(`${date}-нд дуусна`);
    expect(reminder?.text).not.toMatch(/\d{4}-\d{2}-\d{2}/);
  }, 60_000);
});
