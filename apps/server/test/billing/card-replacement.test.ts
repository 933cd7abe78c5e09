import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runDueAt } from '../helpers/dev-clock.js';
import { STORE, withPlans } from '../helpers/factories.js';
import { FAILS_LATER_CARD, orderGatewayFaults, PAID_CARD, subscriber } from '../helpers/premium.js';
import { createTestApp, type TestApp } from '../helpers/test-app.js';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
  await withPlans(t);
});
afterAll(async () => {
  await t.close();
});

const DECLINED_CARD = '4000 0000 0000 0002';

/** Opens the save-card page for the listener; answers its URL. */
async function replaceCard(headers: Record<string, string>) {
  const response = await t.app.inject({ method: 'POST', url: '/api/users/me/card/replace', headers });
  expect(response.statusCode, response.body).toBe(200);
  return new URL((response.json() as { url: string }).url);
}

/** Fills the sandbox's save-card page (or cancels it); answers where the gateway sends the browser. */
async function onCardPage(pageUrl: URL, card: string | 'cancel') {
  const page = await t.app.inject({ method: 'GET', url: pageUrl.pathname + pageUrl.search });
  expect(page.statusCode, page.body).toBe(200);
  expect(page.body).not.toMatch(/₮/);
  const hidden = (name: string) => new RegExp(`name="${name}" value="([^"]+)"`).exec(page.body)?.[1] ?? '';
  const form = { token: hidden('token'), form_key: hidden('form_key') };
  const response = await t.app.inject({
    method: 'POST',
    url: `/sandbox-gateway/card/${card === 'cancel' ? 'cancel' : 'save'}`,
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    payload: new URLSearchParams(
      card === 'cancel' ? form : { ...form, card_number: card, expiry: '12/39', cvc: '123' },
    ).toString(),
  });
  expect(response.statusCode, response.body).toBe(303);
  return new URL(String(response.headers.location));
}

async function comeBack(returnUrl: URL) {
  const response = await t.app.inject({ method: 'GET', url: returnUrl.pathname + returnUrl.search });
  expect(response.statusCode, response.body).toBe(303);
  return String(response.headers.location);
}

async function billing(headers: Record<string, string>) {
  const response = await t.app.inject({ method: 'GET', url: '/api/users/me/billing', headers });
  expect(response.statusCode, response.body).toBe(200);
  return response.json() as {
    card: { last4: string } | null;
    renewal: { renewsBy: string; endDate: string; failedRenewal: { attempts: number } | null } | null;
  };
}

async function messagesTo(msisdn: string) {
  const response = await t.app.inject({ method: 'GET', url: `/dev/outbox?to=${msisdn}` });
  return response.json() as { text: string; link: string | null }[];
}

/** Moves the server clock (development contract) and runs what is due. */
const at = (time: number) => runDueAt(t, time);

describe('replacing the card on file (the gateway save-card flow, no charge)', () => {
  it('a failing card replaced by a good one: nothing charged at the save, the failed renewal paid with the new card at the next run', async () => {
    const { headers, period } = await subscriber(t, undefined, FAILS_LATER_CARD);
    await at(period.end_date.getTime() + 60_000);
    expect((await billing(headers)).renewal?.failedRenewal?.attempts).toBe(1);

    const pageUrl = await replaceCard(headers);
    expect(pageUrl.pathname).toBe('/sandbox-gateway/card');
    const back = await onCardPage(pageUrl, PAID_CARD);
    expect(await comeBack(back)).toBe('/profile?card=saved');
    // The return again (a reload) says the same and keeps one card.
    expect(await comeBack(back)).toBe('/profile?card=saved');
    const after = await billing(headers);
    expect(after.card?.last4).toBe('4242');
    const sessions = await t.db
      .selectFrom('sandbox_gateway_charges')
      .select('status')
      .where('card_token', 'in', t.db.selectFrom('saved_cards').select('provider_token'))
      .execute();
    expect(sessions).toEqual([]);

    await at(t.clock.now().getTime());
    const renewed = await billing(headers);
    expect(renewed.renewal?.failedRenewal).toBeNull();
    expect(new Date(renewed.renewal?.endDate ?? 0).getTime()).toBeGreaterThan(period.end_date.getTime());
  });

  it('a card the bank refuses, and a cancelled page, leave the card on file as it was', async () => {
    const { headers } = await subscriber(t);
    expect(await comeBack(await onCardPage(await replaceCard(headers), DECLINED_CARD))).toBe(
      '/profile?card=declined',
    );
    expect(await comeBack(await onCardPage(await replaceCard(headers), 'cancel'))).toBe(
      '/profile?card=cancelled',
    );
    expect((await billing(headers)).card?.last4).toBe('4242');
  });

  it('an unknown return says nothing was saved; a visitor cannot open the page', async () => {
    const unknown = await t.app.inject({
      method: 'GET',
      url: '/api/payments/card-return?reference=card_00000000-0000-4000-8000-000000000000',
    });
    expect(unknown.headers.location).toBe('/profile?card=pending');
    const visitor = await t.app.inject({ method: 'POST', url: '/api/users/me/card/replace', headers: STORE });
    expect(visitor.statusCode).toBe(401);
  });

  it('a gateway that cannot open the page: 502, and the session is closed', async () => {
    const { headers, user } = await subscriber(t);
    await orderGatewayFaults(t, { call: 'card-session', count: 1, kind: 'unavailable' });
    const refused = await t.app.inject({ method: 'POST', url: '/api/users/me/card/replace', headers });
    expect(refused.statusCode).toBe(502);
    expect(refused.json()).toMatchObject({ message: 'The card gateway could not open its page.' });
    const sessions = await t.db
      .selectFrom('card_replacements')
      .select('status')
      .where('user_id', '=', user.id)
      .execute();
    expect(sessions.map((session) => session.status)).toEqual(['cancelled']);
  });

  it('the sandbox refuses what the gateway would: an amount on a save-card session, a reused reference', async () => {
    const base = {
      client_id: t.deps.config.PAYMENT_CLIENT_ID,
      client_secret: t.deps.config.PAYMENT_CLIENT_SECRET,
      reference: 'card_test-reference',
      redirect_url: 'http://localhost/back',
    };
    const withAmount = await t.app.inject({
      method: 'POST',
      url: '/sandbox-gateway/rest/card-session',
      payload: { ...base, amount: 1 },
    });
    expect(withAmount.statusCode).toBe(400);
    expect(withAmount.json()).toMatchObject({ error: 'invalid_request' });
    const first = await t.app.inject({
      method: 'POST',
      url: '/sandbox-gateway/rest/card-session',
      payload: base,
    });
    expect(first.statusCode, first.body).toBe(200);
    const again = await t.app.inject({
      method: 'POST',
      url: '/sandbox-gateway/rest/card-session',
      payload: base,
    });
    expect(again.statusCode).toBe(409);
    expect(again.json()).toMatchObject({ error: 'duplicate_reference' });
  });

  it('renewals by a QPay link keep the card but send the link; card needs a card on file', async () => {
    const { headers } = await subscriber(t);
    const choose = (method: string) =>
      t.app.inject({ method: 'PUT', url: '/api/users/me/renewal-method', headers, payload: { method } });
    expect((await choose('qpay')).statusCode).toBe(204);
    const byLink = await billing(headers);
    expect(byLink.renewal?.renewsBy).toBe('link');
    expect(byLink.card?.last4).toBe('4242');
    expect((await choose('card')).statusCode).toBe(204);
    expect((await billing(headers)).renewal?.renewsBy).toBe('card');
    expect((await choose('cheque')).statusCode).toBe(400);
    await t.app.inject({ method: 'DELETE', url: '/api/users/me/card', headers });
    const noCard = await choose('card');
    expect(noCard.statusCode).toBe(409);
    expect(noCard.json()).toMatchObject({ error: 'no_card' });
  });

  it('renewing by a QPay link: the reminder links to our own payment page and the card is never charged', async () => {
    const { user, headers, period } = await subscriber(t);
    await t.app.inject({
      method: 'PUT',
      url: '/api/users/me/renewal-method',
      headers,
      payload: { method: 'qpay' },
    });
    const end = period.end_date.getTime();
    await at(end - 3 * 86_400_000 + 60_000);
    const reminder = (await messagesTo(user.phone_number ?? '')).find((m) =>
      m.text.startsWith('Your Premium ends on'),
    );
    expect(reminder?.link).toMatch(new RegExp(`^${t.deps.config.PUBLIC_URL}/pay/`));
    await at(end + 60_000);
    const charges = await t.db
      .selectFrom('sandbox_gateway_charges')
      .select('status')
      .where('invoice_id', '=', decodeURIComponent(reminder?.link?.split('/pay/')[1] ?? ''))
      .execute();
    expect(charges).toEqual([]);
  });

  it('the failed-renewal message links to our own page, not to the gateway', async () => {
    const { user, period } = await subscriber(t, undefined, FAILS_LATER_CARD);
    await at(period.end_date.getTime() + 60_000);
    const failed = (await messagesTo(user.phone_number ?? '')).find((m) =>
      m.text.startsWith('We could not charge'),
    );
    expect(failed?.link).toMatch(new RegExp(`^${t.deps.config.PUBLIC_URL}/pay/`));
    expect(failed?.text).toContain(failed?.link ?? 'no link');
    expect(failed?.text).not.toContain('sandbox-gateway');
  });
});
