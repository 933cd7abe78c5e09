import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { messageDate } from '../../src/lib/message-date.js';
import { deleteAccount } from '../../src/modules/accounts/account-data.js';
import { checkBooks } from '../../src/modules/billing/books-check.js';
import { money } from '../../src/modules/premium/messages.js';
import { addMonths } from '../../src/modules/premium/period.js';
import { consoleCall, signedInOperator } from '../helpers/console.js';
import { createUser, DAY_MS, PLAN_CODES, shopper, siteHeaders, withPlans } from '../helpers/factories.js';
import { ownSubscriptions, PAID_CARD, returnToShop, saveCardOnGateway } from '../helpers/premium.js';
import { createTestApp, type TestApp } from '../helpers/test-app.js';
import { at, billing, startTrial, startTrialCall } from './trial-helpers.js';

/**
 * Where a first-time trial meets the rest of an account (decision 0045, "Crossings"): the message
 * when it starts, the data export, a plan change, a pause, a deletion, a second way to start one,
 * and a conversion read however the free days' end moved.
 */

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
  await withPlans(t);
});
afterAll(async () => {
  await t.close();
});

const PREMIUM = PLAN_CODES.premium;
const mnt = (lang: 'en' | 'mn', amount: number) => money(lang, { amount, currency: 'MNT' });
const profileUrl = () => `${t.deps.config.PUBLIC_URL}/profile`;
type Headers = Record<string, string>;

/** What the outbox holds for an account, oldest first: what its phone or mailbox received. */
async function outboxOf(userId: string) {
  return t.db
    .selectFrom('outbox_messages')
    .select(['channel', 'recipient', 'subject', 'text'])
    .where('user_id', '=', userId)
    .orderBy('created_at')
    .execute();
}

async function chargesOf(userId: string) {
  return t.db
    .selectFrom('sandbox_gateway_charges as c')
    .innerJoin('payment_invoices as i', 'i.invoice_id', 'c.invoice_id')
    .select(['c.status', 'c.amount'])
    .where('i.user_id', '=', userId)
    .execute();
}

async function cardTrial(headers: Headers, card = PAID_CARD, expiry = '11/38', plan: string = PREMIUM) {
  const { url } = await startTrial(t, headers, plan, 'card');
  const back = await saveCardOnGateway(t, new URL(url ?? ''), card, expiry);
  return { back, profile: await returnToShop(t, back) };
}

/** A card trial's subscription and the end of its free days. */
async function cardTrialRunning(headers: Headers, expiry: string, plan: string = PREMIUM) {
  expect((await cardTrial(headers, PAID_CARD, expiry, plan)).profile).toBe('/profile?trial=started');
  const view = await billing(t, headers);
  return { subscriptionId: view.renewal?.subscriptionId ?? '', end: new Date(view.trial?.endsAt ?? '') };
}

function call(method: 'GET' | 'POST', url: string, headers: Headers, payload?: object) {
  return payload === undefined
    ? t.app.inject({ method, url, headers })
    : t.app.inject({ method, url, headers, payload });
}

async function dashboardTrials() {
  const { cookie } = await signedInOperator(t, 'admin');
  const answer = await consoleCall(t, cookie, 'GET', '/api/admin/dashboard?days=365');
  expect(answer.statusCode, answer.body).toBe(200);
  return (answer.json() as { trials: { started: number; converted: number; cancelled: number } }).trials;
}

describe('the message when a trial starts', () => {
  it('by QPay link, in English by SMS: free until the end, then the price by the link, cancel to pay nothing', async () => {
    const { user, headers } = await shopper(t);
    const { startedUntil } = await startTrial(t, headers, PREMIUM, 'qpay');
    const end = new Date(startedUntil ?? '');
    expect(await outboxOf(user.id)).toEqual([
      {
        channel: 'sms',
        recipient: user.phone_number,
        subject: null,
        text: `Your free Premium trial has started: free until ${messageDate(end, 'en')}. Then ${mnt('en', 6900)} a month by a QPay link we send you 3 days before. To pay nothing, don't pay the link or cancel on your profile: ${profileUrl()}`,
      },
    ]);
  });

  it('by card, in Mongolian by e-mail, naming the card; a reloaded return sends nothing more', async () => {
    const user = await createUser(t.db, { primary_email: `bat${Date.now()}@example.mn`, language: 'mn' });
    const headers = await siteHeaders(t, user.id);
    const { back, profile } = await cardTrial(headers, PAID_CARD, '04/37');
    expect(profile).toBe('/profile?trial=started');
    expect(await returnToShop(t, back)).toBe('/profile?trial=started');
    const end = new Date((await billing(t, headers)).trial?.endsAt ?? '');
    const sent = await outboxOf(user.id);
    expect(sent).toHaveLength(1);
    expect(sent[0]).toMatchObject({
      channel: 'email',
      recipient: user.primary_email,
      subject: 'Tunes Premium',
    });
    expect(sent[0]?.text).toBe(
      `Таны Премиум багцын үнэгүй туршилт эхэллээ: ${messageDate(end, 'mn')} хүртэл үнэгүй. Дараа нь таны картаас (Visa •••• 4242) сар бүр ${mnt('mn', 6900)} татагдана. Төлбөр төлөхгүй бол түүнээс өмнө Профайл хэсгээс цуцлаарай: ${profileUrl()}`,
    );
  });
});

describe("the account's data export", () => {
  it('lists its trials — asked, started, refused — with the keys each claimed, and nobody else’s', async () => {
    const first = await shopper(t);
    expect((await cardTrial(first.headers, PAID_CARD, '02/36')).profile).toBe('/profile?trial=started');
    const other = await shopper(t);
    expect((await cardTrial(other.headers, PAID_CARD, '02/36')).profile).toBe(
      '/profile?trial=trial_card_used',
    );
    const exported = await call('GET', '/api/users/me/export', other.headers);
    expect(exported.statusCode, exported.body).toBe(200);
    expect((exported.json() as { trials: unknown[] }).trials).toEqual([
      expect.objectContaining({
        plan: PREMIUM,
        method: 'card',
        status: 'refused',
        startedAt: null,
        freeUntil: null,
        claimed: [],
      }),
    ]);
    const mine = await call('GET', '/api/users/me/export', first.headers);
    const view = await billing(t, first.headers);
    expect((mine.json() as { trials: unknown[] }).trials).toEqual([
      {
        plan: PREMIUM,
        planName: 'Premium',
        method: 'card',
        status: 'started',
        days: 30,
        askedAt: expect.any(String),
        startedAt: expect.any(String),
        freeUntil: view.trial?.endsAt,
        claimed: ['account', 'card', 'number'],
      },
    ]);
  });
});

describe('a plan change in the free days', () => {
  it('to a dearer plan: at once, nothing charged now, the trial keeps its end, the first renewal at the new price', async () => {
    const { user, headers } = await shopper(t);
    const { subscriptionId, end } = await cardTrialRunning(headers, '06/36');
    const preview = await call(
      'GET',
      `/api/subscriptions/${subscriptionId}/plan-change/preview?plan=${PLAN_CODES.duo}`,
      headers,
    );
    expect(preview.statusCode, preview.body).toBe(200);
    expect(preview.json()).toMatchObject({ kind: 'upgrade', amount: 0 });
    const changed = await call('POST', `/api/subscriptions/${subscriptionId}/change`, headers, {
      MerchantCode: PLAN_CODES.duo,
    });
    expect(changed.statusCode, changed.body).toBe(200);
    expect(changed.json()).toMatchObject({ status: 'changed', amount: 0 });
    expect(await chargesOf(user.id)).toEqual([]);
    const view = await billing(t, headers);
    expect(view.renewal).toMatchObject({ MerchantCode: PLAN_CODES.duo, endDate: end.toISOString() });
    expect(view.trial).toMatchObject({ endsAt: end.toISOString(), amountAfter: 9900, cancelled: false });
    expect((await outboxOf(user.id)).map((message) => message.text)).toContain(
      `Your plan is now Premium Duo. Your free trial continues until ${messageDate(end, 'en')}; then ${mnt('en', 9900)} a month. Nothing is charged now.`,
    );

    await at(t, end.getTime() - 3 * DAY_MS + 60_000);
    const reminder = (await outboxOf(user.id)).at(-1)?.text;
    expect(reminder).toMatch(/^Your free Premium Duo trial ends on /);
    expect(reminder).toContain(`Then we will charge ${mnt('en', 9900)} to your saved card`);
    await at(t, end.getTime() + 60_000);
    expect(await chargesOf(user.id)).toEqual([{ status: 'paid', amount: 9900 }]);
    const [subscription] = await ownSubscriptions(t, user.id);
    expect(subscription?.end_date.toISOString()).toBe(addMonths(end, 1).toISOString());
  }, 60_000);

  it('to a plan costing less a month: waits for the trial’s end, which then charges the new plan', async () => {
    const { cookie } = await signedInOperator(t, 'admin');
    const duoTrial = await consoleCall(t, cookie, 'PUT', `/api/admin/plans/${PLAN_CODES.duo}/trial`, {
      trialDays: 14,
    });
    expect(duoTrial.statusCode, duoTrial.body).toBe(200);
    const { user, headers } = await shopper(t);
    const { subscriptionId, end } = await cardTrialRunning(headers, '07/36', PLAN_CODES.duo);
    expect(end.getTime()).toBe(t.clock.now().getTime() + 14 * DAY_MS);
    const changed = await call('POST', `/api/subscriptions/${subscriptionId}/change`, headers, {
      MerchantCode: PREMIUM,
    });
    expect(changed.statusCode, changed.body).toBe(200);
    expect(changed.json()).toEqual({ status: 'scheduled', startsAt: end.toISOString() });
    const view = await billing(t, headers);
    expect(view.trial).toMatchObject({ endsAt: end.toISOString(), amountAfter: 6900 });
    expect(await chargesOf(user.id)).toEqual([]);
    // The reminder names the trial's plan, and the plan the charge then pays for.
    await at(t, end.getTime() - 3 * DAY_MS + 60_000);
    const reminder = (await outboxOf(user.id)).at(-1)?.text;
    expect(reminder).toMatch(/^Your free Premium Duo trial ends on /);
    expect(reminder).toContain(`Then we will charge ${mnt('en', 6900)} for Premium to your saved card`);
    await at(t, end.getTime() + 60_000);
    expect(await chargesOf(user.id)).toEqual([{ status: 'paid', amount: 6900 }]);
    const [subscription] = await ownSubscriptions(t, user.id);
    expect(subscription?.end_date.toISOString()).toBe(addMonths(end, 1).toISOString());
    expect((await billing(t, headers)).renewal).toMatchObject({ MerchantCode: PREMIUM });
  }, 60_000);
});

describe('a pause in the free days', () => {
  it('is refused, naming why, and offered again once the first renewal is paid', async () => {
    const { user, headers } = await shopper(t);
    const { subscriptionId, end } = await cardTrialRunning(headers, '08/36');
    const state = await call('GET', '/api/users/me/pause', headers);
    expect(state.json()).toMatchObject({ unavailable: 'trial', subscriptionId });
    const refused = await call('POST', `/api/subscriptions/${subscriptionId}/pause`, headers, { months: 1 });
    expect(refused.statusCode).toBe(409);
    expect(refused.json()).toMatchObject({
      error: 'trial_not_pausable',
      message: 'A free trial cannot be paused. To pay nothing, cancel it on your profile before it ends.',
    });
    const [during] = await ownSubscriptions(t, user.id);
    expect(during?.next_billing_at?.getTime()).toBe(end.getTime());
    expect(
      await t.db
        .selectFrom('subscription_pauses')
        .select('status')
        .where('subscription_id', '=', subscriptionId)
        .execute(),
    ).toEqual([]);

    await at(t, end.getTime() + 60_000);
    expect(await chargesOf(user.id)).toEqual([{ status: 'paid', amount: 6900 }]);
    expect((await call('GET', '/api/users/me/pause', headers)).json()).toMatchObject({ unavailable: null });
    const paused = await call('POST', `/api/subscriptions/${subscriptionId}/pause`, headers, { months: 1 });
    expect(paused.statusCode, paused.body).toBe(200);
  }, 60_000);
});

describe('a conversion read however the free days moved', () => {
  it('counts a trial extended by support once, at its first paid renewal, and not again after a pause', async () => {
    const before = await dashboardTrials();
    const { user, headers } = await shopper(t);
    const { subscriptionId, end } = await cardTrialRunning(headers, '09/36');
    const { cookie } = await signedInOperator(t, 'support');
    const extended = await consoleCall(
      t,
      cookie,
      'POST',
      `/api/admin/users/${user.id}/subscriptions/${subscriptionId}/extend`,
      { days: 10 },
    );
    expect(extended.statusCode, extended.body).toBe(200);
    const later = end.getTime() + 10 * DAY_MS;
    // Still the trial's free days: the profile, the pause and the reminder say so.
    expect((await billing(t, headers)).trial).toMatchObject({ endsAt: new Date(later).toISOString() });
    expect((await call('GET', '/api/users/me/pause', headers)).json()).toMatchObject({
      unavailable: 'trial',
    });
    await at(t, later - 3 * DAY_MS + 60_000);
    expect((await outboxOf(user.id)).at(-1)?.text).toMatch(/^Your free Premium trial ends on /);
    expect(await dashboardTrials()).toMatchObject({ converted: before.converted });

    await at(t, later + 60_000);
    expect(await chargesOf(user.id)).toEqual([{ status: 'paid', amount: 6900 }]);
    expect((await billing(t, headers)).trial).toBeNull();
    expect(await dashboardTrials()).toMatchObject({ converted: before.converted + 1 });

    // Paused after converting, the plan later renews: the trial converted once, not twice.
    const paused = await call('POST', `/api/subscriptions/${subscriptionId}/pause`, headers, { months: 1 });
    expect(paused.statusCode, paused.body).toBe(200);
    const resumesAt = new Date((paused.json() as { resumesAt: string }).resumesAt).getTime();
    await at(t, resumesAt + 60_000);
    expect(await chargesOf(user.id)).toHaveLength(2);
    expect(await dashboardTrials()).toMatchObject({ converted: before.converted + 1 });
  }, 120_000);
});

describe('an account deleted in its trial', () => {
  it('is never charged, and its number and card cannot take a second trial', async () => {
    const { user, headers } = await shopper(t);
    expect((await cardTrial(headers, PAID_CARD, '10/37')).profile).toBe('/profile?trial=started');
    const end = new Date((await billing(t, headers)).trial?.endsAt ?? '').getTime();
    await deleteAccount(t.deps, user.id);
    await at(t, end - 3 * DAY_MS + 60_000);
    await at(t, end + 60_000);
    await at(t, end + 10 * DAY_MS);
    expect(await chargesOf(user.id)).toEqual([]);
    const invoices = await t.db
      .selectFrom('payment_invoices')
      .select('invoice_id')
      .where('user_id', '=', user.id)
      .execute();
    expect(invoices).toEqual([]);
    const claims = await t.db
      .selectFrom('trial_claims as c')
      .innerJoin('trials as t', 't.id', 'c.trial_id')
      .select('c.key')
      .where('t.user_id', '=', user.id)
      .execute();
    expect(claims).toHaveLength(3);

    const again = await createUser(t.db, { phone_number: user.phone_number ?? '' });
    const refused = await startTrialCall(t, await siteHeaders(t, again.id), PREMIUM, 'qpay');
    expect(refused.json()).toMatchObject({ error: 'trial_not_eligible', reason: 'used_number' });
    const stranger = await shopper(t);
    expect((await cardTrial(stranger.headers, PAID_CARD, '10/37')).profile).toBe(
      '/profile?trial=trial_card_used',
    );
  }, 60_000);
});

describe('a save-card page returned after a QPay trial started', () => {
  it('starts nothing more: one trial, the card not kept, renewals by the QPay link', async () => {
    const { user, headers } = await shopper(t);
    const { url } = await startTrial(t, headers, PREMIUM, 'card');
    const back = await saveCardOnGateway(t, new URL(url ?? ''), PAID_CARD, '01/38');
    await startTrial(t, headers, PREMIUM, 'qpay');
    expect(await returnToShop(t, back)).toBe('/profile?trial=trial_not_eligible');
    expect(await ownSubscriptions(t, user.id)).toHaveLength(1);
    const view = await billing(t, headers);
    expect(view).toMatchObject({ card: null, trial: { method: 'qpay' } });
    expect(
      (await outboxOf(user.id)).filter((m) => m.text.startsWith('Your free Premium trial has started')),
    ).toHaveLength(1);
    // The card was not claimed either: another account may start a trial with it.
    expect((await cardTrial((await shopper(t)).headers, PAID_CARD, '01/38')).profile).toBe(
      '/profile?trial=started',
    );
  });

  it('100 QPay starts and 100 loads of a saved card’s return at once make one trial', async () => {
    const { user, headers } = await shopper(t);
    const { url } = await startTrial(t, headers, PREMIUM, 'card');
    const back = await saveCardOnGateway(t, new URL(url ?? ''), PAID_CARD, '02/38');
    const answers = await Promise.all(
      Array.from({ length: 200 }, (_, index) =>
        index % 2 === 0
          ? startTrialCall(t, headers, PREMIUM, 'qpay').then((answer) => String(answer.statusCode))
          : returnToShop(t, back),
      ),
    );
    const qpayStarted = answers.filter((answer) => answer === '200').length;
    const cardStarted = answers.filter((answer) => answer === '/profile?trial=started').length;
    // Either the QPay start won (every return then says not eligible) or the card did (no QPay start).
    expect(qpayStarted + (cardStarted > 0 ? 1 : 0)).toBe(1);
    expect(await ownSubscriptions(t, user.id)).toHaveLength(1);
    const started = await t.db
      .selectFrom('trials')
      .select('method')
      .where('user_id', '=', user.id)
      .where('status', '=', 'started')
      .execute();
    expect(started).toHaveLength(1);
    const messages = await outboxOf(user.id);
    expect(messages.filter((m) => m.text.startsWith('Your free Premium trial has started'))).toHaveLength(1);
  }, 120_000);
});

describe('the books', () => {
  it('balance with every crossing of this file in them', async () => {
    const check = await checkBooks(t.deps, { providers: false, graceMs: 0 });
    expect(check.mismatches).toEqual([]);
  });
});
