import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LIMITS } from '../../src/lib/limits.js';
import { hashPassword } from '../../src/modules/accounts/secrets.js';
import { addMonths } from '../../src/modules/premium/period.js';
import { withPlans } from '../helpers/factories.js';
import { FAILS_LATER_CARD, ownSubscriptions, PAID_CARD, subscriber } from '../helpers/premium.js';
import { createTestApp, type TestApp, testDatabaseKind } from '../helpers/test-app.js';

/**
 * Replacing the card on file and choosing how renewals are paid (issue 37) under bursts of
 * hundreds at once: the save-card page opened from many tabs, its return (and reloads) arriving
 * together, two saved sessions finishing at once, choices of the renewal method racing each
 * other and the renewal run. PGlite runs one transaction at a time, so there only the steps
 * between statements interleave; the bursts run on both databases.
 */
let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
  await withPlans(t);
});
afterAll(async () => {
  await t.close();
});

const BURST = 300;
const DAY = 86_400_000;
const onPglite = testDatabaseKind === 'pglite' ? ' (PGlite: one transaction at a time)' : '';

const replace = (headers: Record<string, string>) =>
  t.app.inject({ method: 'POST', url: '/api/users/me/card/replace', headers });

async function openSession(headers: Record<string, string>) {
  const response = await replace(headers);
  expect(response.statusCode, response.body).toBe(200);
  return new URL((response.json() as { url: string }).url);
}

/** Saves `card` on the sandbox's save-card page; answers the return address the gateway sends to. */
async function saveOnCardPage(pageUrl: URL, card: string) {
  const page = await t.app.inject({ method: 'GET', url: pageUrl.pathname + pageUrl.search });
  expect(page.statusCode, page.body).toBe(200);
  const hidden = (name: string) => new RegExp(`name="${name}" value="([^"]+)"`).exec(page.body)?.[1] ?? '';
  const response = await t.app.inject({
    method: 'POST',
    url: '/sandbox-gateway/card/save',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    payload: new URLSearchParams({
      token: hidden('token'),
      form_key: hidden('form_key'),
      card_number: card,
      expiry: '12/39',
      cvc: '123',
    }).toString(),
  });
  expect(response.statusCode, response.body).toBe(303);
  return new URL(String(response.headers.location));
}

const comeBack = (returnUrl: URL) =>
  t.app.inject({ method: 'GET', url: returnUrl.pathname + returnUrl.search });

const runJobs = () => t.app.inject({ method: 'POST', url: '/dev/jobs/run-due' });

async function clockAt(time: number) {
  const moved = await t.app.inject({
    method: 'POST',
    url: '/dev/clock',
    payload: { advanceSeconds: Math.max(0, Math.ceil((time - t.clock.now().getTime()) / 1000)) },
  });
  expect(moved.statusCode, moved.body).toBe(200);
}

async function billing(headers: Record<string, string>) {
  const response = await t.app.inject({ method: 'GET', url: '/api/users/me/billing', headers });
  expect(response.statusCode, response.body).toBe(200);
  return response.json() as {
    card: { last4: string } | null;
    renewal: { renewsBy: string; failedRenewal: { attempts: number } | null } | null;
  };
}

/** Every message the number was sent; none may be sent twice. */
async function messagesTo(msisdn: string) {
  const response = await t.app.inject({ method: 'GET', url: '/dev/outbox', query: { to: msisdn } });
  return (response.json() as { text: string }[]).map((message) => message.text);
}

const duplicates = (texts: string[]) => texts.filter((text, i) => texts.indexOf(text) !== i);

async function renewalInvoices(userId: string) {
  return t.db
    .selectFrom('payment_invoices')
    .select(['invoice_id', 'status', 'period_start'])
    .where('user_id', '=', userId)
    .where('kind', '=', 'renewal')
    .execute();
}

async function paidCharges(invoiceIds: string[]) {
  if (invoiceIds.length === 0) return [];
  return t.db
    .selectFrom('sandbox_gateway_charges')
    .select(['invoice_id', 'attempt', 'amount'])
    .where('invoice_id', 'in', invoiceIds)
    .where('status', '=', 'paid')
    .execute();
}

const statuses = (answers: { statusCode: number }[]) =>
  Object.fromEntries(
    [...new Set(answers.map((a) => a.statusCode))].map((code) => [
      code,
      answers.filter((a) => a.statusCode === code).length,
    ]),
  );

describe('replacing the card on file, in bursts', () => {
  it(`${BURST} tabs opening the save-card page at once open at most the per-listener limit of sessions${onPglite}`, async () => {
    const { user, headers } = await subscriber(t);
    const answers = await Promise.all(Array.from({ length: BURST }, () => replace(headers)));
    const limit = LIMITS.checkoutsPerUser.limit;
    expect(statuses(answers)).toEqual({ 200: limit, 429: BURST - limit });
    const urls = answers.filter((a) => a.statusCode === 200).map((a) => (a.json() as { url: string }).url);
    expect(new Set(urls).size).toBe(limit);
    // One of our sessions for each page opened, and one at the gateway: none left half made.
    const ours = await t.db
      .selectFrom('card_replacements')
      .select(['reference', 'status'])
      .where('user_id', '=', user.id)
      .execute();
    expect(ours).toHaveLength(limit);
    expect(ours.every((row) => row.status === 'pending')).toBe(true);
    const theirs = await t.db
      .selectFrom('sandbox_gateway_card_sessions')
      .select('reference')
      .where(
        'reference',
        'in',
        ours.map((row) => row.reference),
      )
      .execute();
    expect(theirs).toHaveLength(limit);
  }, 120_000);

  it(`${BURST} returns of one saved session at once keep one card, settle it once, and the failed renewal is charged once${onPglite}`, async () => {
    const { user, headers, period } = await subscriber(t, undefined, FAILS_LATER_CARD);
    await clockAt(period.end_date.getTime() + 60_000);
    expect((await runJobs()).statusCode).toBe(200);
    expect((await billing(headers)).renewal?.failedRenewal?.attempts).toBe(1);
    const back = await saveOnCardPage(await openSession(headers), PAID_CARD);
    const before = await messagesTo(user.phone_number ?? '');

    // The listener's return and its reloads, with the renewal job running among them.
    const answers = await Promise.all(
      Array.from({ length: BURST }, (_, i) => (i % 10 === 0 ? runJobs() : comeBack(back))),
    );
    const returns = answers.filter((_, i) => i % 10 !== 0);
    expect(new Set(returns.map((a) => `${a.statusCode} ${a.headers.location}`))).toEqual(
      new Set(['303 /profile?card=saved']),
    );
    expect(answers.filter((_, i) => i % 10 === 0).every((a) => a.statusCode === 200)).toBe(true);
    const cards = await t.db
      .selectFrom('saved_cards')
      .select('last4')
      .where('user_id', '=', user.id)
      .execute();
    expect(cards).toEqual([{ last4: '4242' }]);
    const sessions = await t.db
      .selectFrom('card_replacements')
      .select(['status', 'settled_at'])
      .where('user_id', '=', user.id)
      .execute();
    expect(sessions).toMatchObject([{ status: 'saved' }]);

    // The next run pays the failed renewal with the new card: once, with one message about it.
    expect((await runJobs()).statusCode).toBe(200);
    const invoices = await renewalInvoices(user.id);
    expect(invoices).toMatchObject([{ status: 'paid' }]);
    expect(await paidCharges(invoices.map((i) => i.invoice_id))).toHaveLength(1);
    const [renewed] = await ownSubscriptions(t, user.id);
    expect(renewed?.end_date.toISOString()).toBe(addMonths(period.end_date, 1).toISOString());
    const after = await messagesTo(user.phone_number ?? '');
    expect(after.length - before.length).toBeLessThanOrEqual(1);
    expect(duplicates(after)).toEqual([]);
  }, 120_000);

  it(`two saved sessions returning ${BURST / 2} times each at once leave the newer card on file${onPglite}`, async () => {
    const { user, headers } = await subscriber(t);
    const olderPage = await openSession(headers);
    await clockAt(t.clock.now().getTime() + 1000);
    const newerPage = await openSession(headers);
    // The newer card is saved at the gateway first, the older after; their returns come together.
    const newer = await saveOnCardPage(newerPage, PAID_CARD);
    const older = await saveOnCardPage(olderPage, FAILS_LATER_CARD);
    const answers = await Promise.all(
      Array.from({ length: BURST }, (_, i) => comeBack(i % 2 === 0 ? older : newer)),
    );
    expect(new Set(answers.map((a) => a.headers.location))).toEqual(new Set(['/profile?card=saved']));
    const cards = await t.db
      .selectFrom('saved_cards')
      .select(['last4', 'provider_token'])
      .where('user_id', '=', user.id)
      .execute();
    expect(cards).toHaveLength(1);
    expect(cards[0]?.last4).toBe('4242');
    const sessions = await t.db
      .selectFrom('card_replacements')
      .select('status')
      .where('user_id', '=', user.id)
      .execute();
    expect(sessions).toEqual([{ status: 'saved' }, { status: 'saved' }]);
  }, 120_000);
});

describe('a card saved as the account is deleted', () => {
  it(`${BURST / 2} returns and ${BURST / 2} deletions at once: the account is gone and no card is kept${onPglite}`, async () => {
    const { user, headers } = await subscriber(t);
    const password = 'a long enough password';
    await t.db
      .updateTable('users')
      .set({ password_hash: await hashPassword(password) })
      .where('id', '=', user.id)
      .execute();
    const back = await saveOnCardPage(await openSession(headers), FAILS_LATER_CARD);
    const answers = await Promise.all(
      Array.from({ length: BURST }, (_, i) =>
        i % 2 === 0
          ? comeBack(back)
          : t.app.inject({
              method: 'DELETE',
              url: '/api/users/me',
              headers,
              payload: { Password: password },
            }),
      ),
    );
    expect(answers.filter((a) => a.statusCode >= 500).map((a) => a.body)).toEqual([]);
    expect(answers.filter((a, i) => i % 2 === 1 && a.statusCode === 204)).toHaveLength(1);
    expect(answers.filter((a, i) => i % 2 === 0 && a.statusCode !== 303)).toEqual([]);
    const account = await t.db
      .selectFrom('users')
      .select('deleted_at')
      .where('id', '=', user.id)
      .executeTakeFirstOrThrow();
    expect(account.deleted_at).not.toBeNull();
    expect(
      await t.db.selectFrom('saved_cards').select('last4').where('user_id', '=', user.id).execute(),
    ).toEqual([]);
  }, 120_000);
});

describe('choosing how renewals are paid, in bursts', () => {
  const choose = (headers: Record<string, string>, method: 'card' | 'qpay') =>
    t.app.inject({ method: 'PUT', url: '/api/users/me/renewal-method', headers, payload: { method } });
  const alternating = (i: number) => (i % 2 === 0 ? 'qpay' : 'card');

  it(`${BURST} alternating choices at once leave one choice, the one the profile shows${onPglite}`, async () => {
    const { user, headers } = await subscriber(t);
    const answers = await Promise.all(
      Array.from({ length: BURST }, (_, i) => choose(headers, alternating(i))),
    );
    expect(statuses(answers)).toEqual({ 204: BURST });
    const rows = await t.db
      .selectFrom('renewal_methods')
      .select('method')
      .where('user_id', '=', user.id)
      .execute();
    expect(rows).toHaveLength(1);
    const view = await billing(headers);
    expect(view.renewal?.renewsBy).toBe(rows[0]?.method === 'qpay' ? 'link' : 'card');
    expect(view.card?.last4).toBe('4242');
  }, 120_000);

  it(`${BURST} alternating choices racing the renewal run on the end date: one renewal, charged at most once, by what was chosen${onPglite}`, async () => {
    const { user, headers, period } = await subscriber(t);
    await clockAt(period.end_date.getTime() - 3 * DAY + 60_000);
    expect((await runJobs()).statusCode).toBe(200);
    await clockAt(period.end_date.getTime() + 60_000);
    const answers = await Promise.all(
      Array.from({ length: BURST }, (_, i) => (i % 10 === 0 ? runJobs() : choose(headers, alternating(i)))),
    );
    expect(answers.every((a) => a.statusCode === 200 || a.statusCode === 204)).toBe(true);

    const invoices = (await renewalInvoices(user.id)).filter(
      (invoice) => invoice.period_start?.getTime() === period.end_date.getTime(),
    );
    expect(invoices).toHaveLength(1);
    const charged = await paidCharges(invoices.map((i) => i.invoice_id));
    const [s] = await ownSubscriptions(t, user.id);
    if (invoices[0]?.status === 'paid') {
      // Claimed while the card was the choice: charged once, renewed once.
      expect(charged).toHaveLength(1);
      expect(s?.end_date.toISOString()).toBe(addMonths(period.end_date, 1).toISOString());
    } else {
      // Claimed while the link was the choice: the card is not charged.
      expect(charged).toEqual([]);
      expect(s?.end_date.toISOString()).toBe(period.end_date.toISOString());
    }
    expect(duplicates(await messagesTo(user.phone_number ?? ''))).toEqual([]);
  }, 120_000);
});
