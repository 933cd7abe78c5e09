import { RENEWAL_RETRY_DAYS } from '@tunes/shared/billing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { messageDate } from '../../src/lib/message-date.js';
import { runDueAt } from '../helpers/dev-clock.js';
import { PLAN_CODES, STORE, withPlans } from '../helpers/factories.js';
import { FAILS_LATER_CARD, subscriber } from '../helpers/premium.js';
import { createTestApp, type TestApp } from '../helpers/test-app.js';

const DAY = 86_400_000;
const LAST_RETRY_DAYS = RENEWAL_RETRY_DAYS[RENEWAL_RETRY_DAYS.length - 1] ?? 0;
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

/** The dates an English message names ("December 1, 2026"). */
const datesIn = (text: string) => [...text.matchAll(/[A-Z][a-z]+ \d{1,2}, \d{4}/g)].map((match) => match[0]);
const day = (iso: string | Date) => messageDate(new Date(iso), 'en');

interface Billing {
  renewal: {
    nextChargeAt: string | null;
    endDate: string;
    failedRenewal: { nextAttemptAt: string | null; accessUntil: string } | null;
  } | null;
}

describe('the renewal timeline of a failing card', () => {
  it('every message names the profile’s dates, and access lasts until the last retry it promised', async () => {
    const { user, headers, period } = await subscriber(t, PLAN_CODES.premium, FAILS_LATER_CARD);
    const msisdn = user.phone_number ?? '';
    const end = period.end_date.getTime();
    const billing = async () =>
      (await t.app.inject({ method: 'GET', url: '/api/users/me/billing', headers })).json() as Billing;
    const hasPremium = async () => {
      const profile = await t.app.inject({
        method: 'GET',
        url: `/api/users/${user.id}/profile`,
        headers: { ...STORE, ...(await t.authHeader(user.id)) },
      });
      return (profile.json() as { Subscriptions: unknown[] }).Subscriptions.length > 0;
    };
    let seen = 0;
    const newMessages = async () => {
      const response = await t.app.inject({ method: 'GET', url: `/dev/outbox?to=${msisdn}` });
      const all = (response.json() as { text: string }[]).reverse().map((message) => message.text);
      const fresh = all.slice(seen);
      seen = all.length;
      return fresh;
    };
    await newMessages();

    // The reminder names the day the profile says the plan renews.
    await at(end - 3 * DAY + 60_000);
    const [reminder] = await newMessages();
    const before = await billing();
    expect(reminder).toMatch(/^Your Premium renews on/);
    expect(datesIn(reminder ?? '')).toEqual([day(before.renewal?.nextChargeAt ?? '')]);
    expect(day(before.renewal?.endDate ?? '')).toBe(day(period.end_date));

    // Each failed charge names the retry day the profile shows; access holds meanwhile.
    const promised: string[] = [];
    for (const offset of [0, ...RENEWAL_RETRY_DAYS.slice(0, -1)]) {
      await at(end + offset * DAY + 60_000);
      const failures = (await newMessages()).filter((text) => text.startsWith('We could not charge'));
      expect(failures).toHaveLength(1);
      const failed = (await billing()).renewal?.failedRenewal;
      expect(failed?.nextAttemptAt).toBeTruthy();
      expect(datesIn(failures[0] ?? '')).toEqual([
        day(failed?.nextAttemptAt ?? ''),
        day(failed?.accessUntil ?? ''),
      ]);
      promised.push(failed?.accessUntil ?? '');
      expect(await hasPremium()).toBe(true);
    }
    // The profile promises one day throughout: access until the last retry.
    const lastRetry = end + LAST_RETRY_DAYS * DAY;
    expect(new Set(promised.map(day))).toEqual(new Set([day(new Date(lastRetry))]));

    // Not lapsed a moment before the last retry the messages and the profile promised.
    await at(lastRetry - 60_000);
    expect(await hasPremium()).toBe(true);
    expect(await newMessages()).toEqual([]);

    // The last retry fails: access ends then, and the message says so on that day.
    await at(lastRetry + 60_000);
    expect(await hasPremium()).toBe(false);
    const [ended] = await newMessages();
    expect(ended).toMatch(/^Your Premium has ended/);
  }, 90_000);
});
