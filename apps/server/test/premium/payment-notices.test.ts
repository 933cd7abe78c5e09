import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runDueAt } from '../helpers/dev-clock.js';
import { PLAN_CODES, shopper, withPlans } from '../helpers/factories.js';
import { payOnGateway, returnToShop, startCheckout, subscriber } from '../helpers/premium.js';
import { answerAtBank, qpayCheckout } from '../helpers/qpay-factories.js';
import { createTestApp, type TestApp } from '../helpers/test-app.js';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
  await withPlans(t);
});
afterAll(async () => {
  await t.close();
});

async function messagesTo(to: string) {
  const response = await t.app.inject({ method: 'GET', url: '/dev/outbox', query: { to } });
  return response.json() as { text: string; link: string | null }[];
}

/** Moves the server clock (development contract) and runs what is due. */
const at = (time: number) => runDueAt(t, time);

const receiptOf = (invoiceId: string) =>
  `${t.deps.config.PUBLIC_URL}/receipts/${encodeURIComponent(invoiceId)}`;

describe('a message after every charge, with its receipt', () => {
  it('a first card purchase: welcome to Premium, once, with the receipt link and the end date the profile shows', async () => {
    const { user, invoiceId, period } = await subscriber(t);
    const paid = (await messagesTo(user.phone_number ?? '')).filter((m) => m.link === receiptOf(invoiceId));
    expect(paid).toHaveLength(1);
    const end = new Intl.DateTimeFormat('en-US', { dateStyle: 'long', timeZone: 'Asia/Ulaanbaatar' }).format(
      period.end_date,
    );
    expect(paid[0]?.text).toBe(
      `Welcome to Premium! Your Premium is active until ${end}: unlimited skips, offline listening, no ads. Receipt for ₮6,900: ${receiptOf(invoiceId)}`,
    );
  });

  it('every renewal charge sends the renewal receipt; a purchase after a lapse is not a welcome', async () => {
    const { user, headers, period } = await subscriber(t);
    await at(period.end_date.getTime() + 60_000);
    const renewed = (await messagesTo(user.phone_number ?? '')).filter((m) =>
      m.text.startsWith('Your Premium renewed'),
    );
    expect(renewed).toHaveLength(1);
    expect(renewed[0]?.link).toMatch(/\/receipts\//);
    expect(renewed[0]?.text).toContain(renewed[0]?.link ?? 'no link');

    const cancel = await t.app.inject({
      method: 'POST',
      url: `/api/users/${user.id}/subscriptions/${period.id}/cancel`,
      headers,
    });
    expect(cancel.statusCode, cancel.body).toBeLessThan(300);
    await at(period.end_date.getTime() + 40 * 86_400_000);
    const again = await startCheckout(t, headers, PLAN_CODES.premium);
    await returnToShop(t, await payOnGateway(t, again.gatewayUrl, '4242 4242 4242 4242'));
    const texts = (await messagesTo(user.phone_number ?? '')).map((m) => m.text);
    expect(texts.filter((text) => text.startsWith('Welcome to Premium'))).toHaveLength(1);
    expect(texts[0]).toMatch(/^Your Premium is active until .* Receipt for ₮6,900: .*\/receipts\//);
  });

  it('a QPay purchase in Mongolian: the welcome in Mongolian with its receipt link', async () => {
    const { user, headers } = await shopper(t);
    await t.db.updateTable('users').set({ language: 'mn' }).where('id', '=', user.id).execute();
    const checkout = await qpayCheckout(t, headers, PLAN_CODES.family);
    await answerAtBank(t, checkout);
    const [welcome] = await messagesTo(user.phone_number ?? '');
    expect(welcome?.text).toMatch(/^Премиумд тавтай морил! Таны Премиум Гэр бүл багц идэвхжлээ/);
    expect(welcome?.link).toBe(receiptOf(checkout.invoiceId));
  });
});
