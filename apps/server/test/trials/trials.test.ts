import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { deleteAccount } from '../../src/modules/accounts/account-data.js';
import { checkBooks } from '../../src/modules/billing/books-check.js';
import { money } from '../../src/modules/premium/messages.js';
import { addMonths } from '../../src/modules/premium/period.js';
import { createUser, DAY_MS, PLAN_CODES, shopper, siteHeaders, withPlans } from '../helpers/factories.js';
import {
  FAILS_LATER_CARD,
  orderGatewayFaults,
  ownSubscriptions,
  PAID_CARD,
  returnToShop,
  saveCardOnGateway,
} from '../helpers/premium.js';
import { createTestApp, type TestApp } from '../helpers/test-app.js';
import {
  at,
  billing,
  cancelRenewal,
  messagesTo,
  payLinkByQpay,
  startTrial,
  startTrialCall,
} from './trial-helpers.js';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
  await withPlans(t);
});
afterAll(async () => {
  await t.close();
});

const PREMIUM = PLAN_CODES.premium;
const price = (lang: 'en' | 'mn') => money(lang, { amount: 6900, currency: 'MNT' });

/** Every charge the sandbox gateway took of a user's invoices. */
async function chargesOf(userId: string) {
  return t.db
    .selectFrom('sandbox_gateway_charges as c')
    .innerJoin('payment_invoices as i', 'i.invoice_id', 'c.invoice_id')
    .select(['c.invoice_id', 'c.status', 'c.amount'])
    .where('i.user_id', '=', userId)
    .execute();
}

async function renewalInvoices(userId: string) {
  return t.db
    .selectFrom('payment_invoices')
    .select(['invoice_id', 'status', 'amount', 'method'])
    .where('user_id', '=', userId)
    .where('kind', '=', 'renewal')
    .execute();
}

/** A card trial through the sandbox's save-card page; answers where /profile is sent. */
async function cardTrial(headers: Record<string, string>, card = PAID_CARD, expiry = '12/39') {
  const { url } = await startTrial(t, headers, PREMIUM, 'card');
  const back = await saveCardOnGateway(t, new URL(url ?? ''), card, expiry);
  return { back, profile: await returnToShop(t, back) };
}

async function offer(headers: Record<string, string>) {
  const response = await t.app.inject({ method: 'GET', url: '/api/premium/trial', headers });
  expect(response.statusCode, response.body).toBe(200);
  return response.json() as {
    eligible: boolean;
    reason?: string;
    plans: { MerchantCode: string; TrialDays: number; EndsAt: string }[];
  };
}

describe('a trial renewed by a QPay link', () => {
  it('starts at once, reminds 3 days before with the link, and converts when the link is paid', async () => {
    const { user, headers } = await shopper(t);
    // The end the dialog promises is the server's: its clock, not the device's, decides.
    t.clock.advance(40 * DAY_MS);
    const started = t.clock.now().getTime();
    const promised = new Date(started + 30 * DAY_MS).toISOString();
    expect(await offer(headers)).toEqual({
      eligible: true,
      plans: [{ MerchantCode: PREMIUM, TrialDays: 30, Cost: 6900, EndsAt: promised }],
    });
    const { startedUntil } = await startTrial(t, headers, PREMIUM, 'qpay');
    expect(startedUntil).toBe(promised);
    const end = new Date(startedUntil ?? '').getTime();
    expect((await billing(t, headers)).trial).toEqual({
      endsAt: new Date(end).toISOString(),
      amountAfter: 6900,
      method: 'qpay',
      cancelled: false,
    });
    expect(await offer(headers)).toMatchObject({ eligible: false, reason: 'subscribed' });

    await at(t, end - 3 * DAY_MS + 60_000);
    const reminder = (await messagesTo(t, user.phone_number ?? '')).at(-1);
    expect(reminder?.text).toMatch(/^Your free Premium trial ends on /);
    expect(reminder?.text).toContain(`To keep listening, pay ${price('en')} here: http`);
    expect(reminder?.text).toContain('To pay nothing, do nothing or cancel on your profile.');
    const [invoice] = await renewalInvoices(user.id);
    expect(invoice).toMatchObject({ status: 'created', amount: 6900 });
    expect(reminder?.link).toContain(encodeURIComponent(invoice?.invoice_id ?? ''));

    await payLinkByQpay(t, headers, invoice?.invoice_id ?? '');
    await at(t, end + 60_000);
    const [subscription] = await ownSubscriptions(t, user.id);
    expect(subscription?.end_date.toISOString()).toBe(addMonths(new Date(end), 1).toISOString());
    expect(subscription?.is_auto_renew).toBe(true);
    const after = await billing(t, headers);
    expect(after.trial).toBeNull();
    expect(after.renewal?.endDate).toBe(addMonths(new Date(end), 1).toISOString());
    expect(await renewalInvoices(user.id)).toEqual([
      expect.objectContaining({ status: 'paid', method: 'qpay' }),
    ]);
  }, 60_000);

  it('lapses at the end without a charge when the link is not paid', async () => {
    const { user, headers } = await shopper(t);
    const { startedUntil } = await startTrial(t, headers, PREMIUM, 'qpay');
    const end = new Date(startedUntil ?? '').getTime();
    await at(t, end + 60_000);
    const [subscription] = await ownSubscriptions(t, user.id);
    expect(subscription?.end_date.getTime()).toBe(end);
    expect(subscription?.is_auto_renew).toBe(false);
    expect(await chargesOf(user.id)).toEqual([]);
  });
});

describe('a trial with a saved card', () => {
  it('saves the card without a charge, reminds, and converts by a full-price charge at the end', async () => {
    const { user, headers } = await shopper(t);
    const { back, profile } = await cardTrial(headers);
    expect(profile).toBe('/profile?trial=started');
    // A reload of the return says the same and starts nothing more.
    expect(await returnToShop(t, back)).toBe('/profile?trial=started');
    expect(await ownSubscriptions(t, user.id)).toHaveLength(1);
    const view = await billing(t, headers);
    expect(view.card?.last4).toBe('4242');
    expect(view.trial).toMatchObject({ method: 'card', cancelled: false, amountAfter: 6900 });
    expect(await chargesOf(user.id)).toEqual([]);
    const end = new Date(view.trial?.endsAt ?? '').getTime();

    await at(t, end - 3 * DAY_MS + 60_000);
    const reminder = (await messagesTo(t, user.phone_number ?? '')).at(-1)?.text;
    expect(reminder).toMatch(/^Your free Premium trial ends on /);
    expect(reminder).toMatch(
      /Then we will charge (.+) to your saved card \(\w+ •••• 4242\)\. To pay nothing, cancel on your profile/,
    );
    expect(reminder).toContain(price('en'));
    expect(await chargesOf(user.id)).toEqual([]);

    await at(t, end + 60_000);
    const [subscription] = await ownSubscriptions(t, user.id);
    expect(subscription?.end_date.toISOString()).toBe(addMonths(new Date(end), 1).toISOString());
    expect(await chargesOf(user.id)).toEqual([expect.objectContaining({ status: 'paid', amount: 6900 })]);
    expect(await renewalInvoices(user.id)).toEqual([
      expect.objectContaining({ status: 'paid', amount: 6900 }),
    ]);
    expect((await billing(t, headers)).trial).toBeNull();
  }, 60_000);

  it('a gateway that cannot open its page: 502, nothing started, and the next try starts the trial', async () => {
    const { user, headers } = await shopper(t);
    await orderGatewayFaults(t, { call: 'card-session', count: 1, kind: 'unavailable' });
    const refused = await startTrialCall(t, headers, PREMIUM, 'card');
    expect(refused.statusCode, refused.body).toBe(502);
    expect(refused.json()).toMatchObject({ message: 'The card gateway could not open its page.' });
    expect(await ownSubscriptions(t, user.id)).toEqual([]);
    expect((await billing(t, headers)).trial).toBeNull();

    // A card of its own: "once per card" is the card's brand, last digits and expiry.
    const { profile } = await cardTrial(headers, PAID_CARD, '05/37');
    expect(profile).toBe('/profile?trial=started');
    expect(await ownSubscriptions(t, user.id)).toHaveLength(1);
    expect(await chargesOf(user.id)).toEqual([]);
  });

  it('cancelled in the trial: access to the end, never charged, no invoice', async () => {
    const { user, headers } = await shopper(t);
    await cardTrial(headers, FAILS_LATER_CARD, '10/38');
    const view = await billing(t, headers);
    const end = new Date(view.trial?.endsAt ?? '').getTime();
    await cancelRenewal(t, headers, user.id, view.renewal?.subscriptionId ?? '');
    expect((await billing(t, headers)).trial).toMatchObject({ cancelled: true });

    const before = (await messagesTo(t, user.phone_number ?? '')).length;
    await at(t, end - 3 * DAY_MS + 60_000);
    await at(t, end - 60_000);
    const [during] = await ownSubscriptions(t, user.id);
    expect(during?.end_date.getTime()).toBe(end);
    await at(t, end + 60_000);
    await at(t, end + 6 * DAY_MS);
    expect(await messagesTo(t, user.phone_number ?? '')).toHaveLength(before);
    expect(await chargesOf(user.id)).toEqual([]);
    expect(await renewalInvoices(user.id)).toEqual([]);
    const [after] = await ownSubscriptions(t, user.id);
    expect(after?.end_date.getTime()).toBe(end);
    expect(after?.is_auto_renew).toBe(false);
  }, 60_000);
});

describe('once per person', () => {
  it('refuses a second trial of the account, and an account that had Premium', async () => {
    const { headers } = await shopper(t);
    await startTrial(t, headers, PREMIUM, 'qpay');
    for (const method of ['qpay', 'card'] as const) {
      const again = await startTrialCall(t, headers, PREMIUM, method);
      expect(again.statusCode).toBe(409);
      expect(again.json()).toMatchObject({ error: 'trial_not_eligible', reason: 'subscribed' });
    }
    await at(t, t.clock.now().getTime() + 31 * DAY_MS);
    const later = await startTrialCall(t, headers, PREMIUM, 'qpay');
    expect(later.statusCode).toBe(409);
    expect(later.json()).toMatchObject({ error: 'trial_not_eligible', reason: 'used_account' });
  });

  it('refuses the number of a deleted account that had one', async () => {
    const first = await shopper(t);
    await startTrial(t, first.headers, PREMIUM, 'qpay');
    await deleteAccount(t.deps, first.user.id);
    const again = await createUser(t.db, { phone_number: first.user.phone_number ?? '' });
    const headers = await siteHeaders(t, again.id);
    expect(await offer(headers)).toMatchObject({ eligible: false, reason: 'used_number' });
    const refused = await startTrialCall(t, headers, PREMIUM, 'qpay');
    expect(refused.statusCode).toBe(409);
    expect(refused.json()).toMatchObject({ error: 'trial_not_eligible', reason: 'used_number' });
  });

  it('refuses a card that had a trial: nothing starts, the card is not kept, another card works', async () => {
    const first = await shopper(t);
    expect((await cardTrial(first.headers, PAID_CARD, '07/37')).profile).toBe('/profile?trial=started');
    const second = await shopper(t);
    expect((await cardTrial(second.headers, PAID_CARD, '07/37')).profile).toBe(
      '/profile?trial=trial_card_used',
    );
    expect(await ownSubscriptions(t, second.user.id)).toEqual([]);
    expect(await billing(t, second.headers)).toMatchObject({ card: null, trial: null });
    expect(await offer(second.headers)).toMatchObject({ eligible: true });
    expect((await cardTrial(second.headers, FAILS_LATER_CARD, '07/37')).profile).toBe(
      '/profile?trial=started',
    );
  });

  it('refuses a plan without a trial, naming MerchantCode', async () => {
    const { headers } = await shopper(t);
    const response = await startTrialCall(t, headers, PLAN_CODES.duo, 'qpay');
    expect(response.statusCode).toBe(400);
    expect(response.json()).toMatchObject({ field: 'MerchantCode' });
  });

  it('a burst of 200 starts for one account makes one trial', async () => {
    const { user, headers } = await shopper(t);
    const answers = await Promise.all(
      Array.from({ length: 200 }, () => startTrialCall(t, headers, PREMIUM, 'qpay')),
    );
    const codes = answers.map((answer) => answer.statusCode);
    expect(codes.filter((code) => code === 200)).toHaveLength(1);
    expect(codes.filter((code) => code === 409)).toHaveLength(199);
    expect(await ownSubscriptions(t, user.id)).toHaveLength(1);
    const trials = await t.db.selectFrom('trials').select('status').where('user_id', '=', user.id).execute();
    expect(trials).toEqual([{ status: 'started' }]);
  }, 120_000);

  it('two save-card pages of one account returned 100 times each at once start one trial', async () => {
    const { user, headers } = await shopper(t);
    const pages = [
      await startTrial(t, headers, PREMIUM, 'card'),
      await startTrial(t, headers, PREMIUM, 'card'),
    ];
    const backs = [
      await saveCardOnGateway(t, new URL(pages[0]?.url ?? ''), PAID_CARD, '03/36'),
      await saveCardOnGateway(t, new URL(pages[1]?.url ?? ''), FAILS_LATER_CARD, '03/36'),
    ];
    const outcomes = await Promise.all(
      Array.from({ length: 200 }, (_, index) => returnToShop(t, backs[index % 2] as URL)),
    );
    const startedPages = new Set(
      outcomes.flatMap((where, index) => (where === '/profile?trial=started' ? [index % 2] : [])),
    );
    expect(startedPages.size).toBe(1);
    expect(outcomes.every((where) => /trial=(started|trial_not_eligible)$/.test(where))).toBe(true);
    expect(await ownSubscriptions(t, user.id)).toHaveLength(1);
  }, 120_000);
});

describe('one card, many accounts at once', () => {
  it('50 accounts returning with the same card at once: one trial, the others told the card was used', async () => {
    const people = await Promise.all(Array.from({ length: 50 }, () => shopper(t)));
    const backs: URL[] = [];
    for (const person of people) {
      const { url } = await startTrial(t, person.headers, PREMIUM, 'card');
      backs.push(await saveCardOnGateway(t, new URL(url ?? ''), PAID_CARD, '09/34'));
    }
    const outcomes = await Promise.all(backs.map((back) => returnToShop(t, back)));
    expect(outcomes.filter((where) => where === '/profile?trial=started')).toHaveLength(1);
    expect(outcomes.filter((where) => where === '/profile?trial=trial_card_used')).toHaveLength(49);
    const periods = await t.db
      .selectFrom('subscriptions')
      .select('id')
      .where(
        'owner_id',
        'in',
        people.map((person) => person.user.id),
      )
      .execute();
    expect(periods).toHaveLength(1);
  }, 120_000);
});

describe('the reminder in the account language', () => {
  it('tells a Mongolian account in Mongolian 3 days before the trial ends', async () => {
    const user = await createUser(t.db, { first_name: 'Бат', language: 'mn' });
    const headers = await siteHeaders(t, user.id);
    const { startedUntil } = await startTrial(t, headers, PREMIUM, 'qpay');
    const end = new Date(startedUntil ?? '').getTime();
    await at(t, end - 4 * DAY_MS);
    const before = await messagesTo(t, user.phone_number ?? '');
    await at(t, end - 3 * DAY_MS + 60_000);
    const messages = await messagesTo(t, user.phone_number ?? '');
    expect(messages).toHaveLength(before.length + 1);
    expect(messages.at(-1)?.text).toMatch(/^Таны Премиум багцын үнэгүй туршилт \d{4} оны .+-нд дуусна\. /);
    expect(messages.at(-1)?.text).toContain(`${price('mn')} төлнө үү: http`);
  });
});

describe('the books', () => {
  it('balance with every trial of this file in them: free days are backed, renewals paid', async () => {
    const check = await checkBooks(t.deps, { providers: false, graceMs: 0 });
    expect(check.mismatches).toEqual([]);
  });
});
