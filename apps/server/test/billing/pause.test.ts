import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addMonths } from '../../src/modules/premium/period.js';
import { runDueAt } from '../helpers/dev-clock.js';
import { createUser, PLAN_CODES, withPlans } from '../helpers/factories.js';
import {
  FAILS_LATER_CARD,
  ownSubscriptions,
  payOnGateway,
  returnToShop,
  startCheckout,
  subscriber,
} from '../helpers/premium.js';
import { createTestApp, type TestApp, testDatabaseKind } from '../helpers/test-app.js';

/**
 * Premium paused for 1–3 months (issue 37): the pause starts at the end of the paid period, the
 * renewal moves by its span, members pause with the owner, resume early; whatever runs at once.
 */
let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
  await withPlans(t);
});
afterAll(async () => {
  await t.close();
});

const DAY = 86_400_000;
/** Requests at once in a burst (hundreds, as many tabs, clients and jobs could send). */
const BURST = 300;

/** Moves the server clock (development contract) and runs what is due. */
const at = (time: number) => runDueAt(t, time);

const pause = (headers: Record<string, string>, id: string, months: number) =>
  t.app.inject({ method: 'POST', url: `/api/subscriptions/${id}/pause`, headers, payload: { months } });
const resume = (headers: Record<string, string>, id: string) =>
  t.app.inject({ method: 'DELETE', url: `/api/subscriptions/${id}/pause`, headers });

async function activeSubscriptions(userId: string) {
  const answer = await t.app.inject({
    method: 'GET',
    url: `/api/users/${userId}/profile`,
    headers: await t.authHeader(userId),
  });
  return (answer.json() as { Subscriptions: { SubscriptionId: string; EndDate: string }[] }).Subscriptions;
}

async function messagesTo(to: string) {
  const response = await t.app.inject({ method: 'GET', url: '/dev/outbox', query: { to } });
  return (response.json() as { text: string }[]).map((m) => m.text);
}

async function member(subscriptionId: string, ownerId: string) {
  const joining = await createUser(t.db, { first_name: 'Saraa' });
  const code = (
    await t.app.inject({
      method: 'POST',
      url: `/api/subscription/${subscriptionId}/invitation-code`,
      headers: await t.authHeader(ownerId),
    })
  ).json().Code;
  const accepted = await t.app.inject({
    method: 'POST',
    url: `/api/subscription/invitations/${code}`,
    headers: await t.authHeader(joining.id),
  });
  expect(accepted.statusCode, accepted.body).toBe(200);
  return joining;
}

async function charges(userId: string) {
  return t.db
    .selectFrom('payment_invoices')
    .select(['kind', 'status', 'period_start', 'amount'])
    .where('user_id', '=', userId)
    .where('kind', '=', 'renewal')
    .execute();
}

describe('pausing Premium', () => {
  it('2 months of a Family plan: access to the end, then nobody on it has Premium, then the card is charged and all have it again', async () => {
    const { user, headers, period } = await subscriber(t, PLAN_CODES.family);
    const saraa = await member(period.id, user.id);
    const state = await t.app.inject({ method: 'GET', url: '/api/users/me/pause', headers });
    expect(state.json()).toMatchObject({
      pause: null,
      unavailable: null,
      subscriptionId: period.id,
      members: 1,
    });

    const paused = await pause(headers, period.id, 2);
    expect(paused.statusCode, paused.body).toBe(200);
    const resumesAt = addMonths(period.end_date, 2);
    expect(paused.json()).toMatchObject({
      months: 2,
      startsAt: period.end_date.toISOString(),
      resumesAt: resumesAt.toISOString(),
      started: false,
      members: 1,
      amount: 17_900,
    });
    expect(
      (await messagesTo(user.phone_number ?? '')).filter((m) =>
        m.startsWith('Your Premium Family pauses on'),
      ),
    ).toHaveLength(1);

    // No reminder and no charge at the end date: the pause begins, for the member too.
    await at(period.end_date.getTime() + 60_000);
    expect(await activeSubscriptions(user.id)).toEqual([]);
    expect(await activeSubscriptions(saraa.id)).toEqual([]);
    expect(await charges(user.id)).toEqual([]);
    expect(
      (await messagesTo(user.phone_number ?? '')).filter((m) => m.startsWith('Your Premium Family renews')),
    ).toEqual([]);

    await at(resumesAt.getTime() - 3 * DAY + 60_000);
    expect(
      (await messagesTo(user.phone_number ?? '')).filter((m) =>
        m.startsWith('Your Premium Family resumes on'),
      ),
    ).toHaveLength(1);
    await at(resumesAt.getTime() + 60_000);
    const [renewed] = await ownSubscriptions(t, user.id);
    expect(renewed?.end_date.toISOString()).toBe(addMonths(resumesAt, 1).toISOString());
    expect(await charges(user.id)).toMatchObject([
      { status: 'paid', period_start: resumesAt, amount: 17_900 },
    ]);
    expect(await activeSubscriptions(saraa.id)).toHaveLength(1);
  }, 60_000);

  it('resume early during the pause: the card is charged at once for a period from today', async () => {
    const { user, headers, period } = await subscriber(t);
    expect((await pause(headers, period.id, 3)).statusCode).toBe(200);
    await at(period.end_date.getTime() + 10 * DAY);
    expect(await activeSubscriptions(user.id)).toEqual([]);
    const now = t.clock.now();
    const resumed = await resume(headers, period.id);
    expect(resumed.json()).toEqual({ outcome: 'renewed' });
    const [active] = await activeSubscriptions(user.id);
    expect(active?.EndDate).toBe(addMonths(now, 1).toISOString());
    // The old resumption day does nothing any more: no charge for a period from it.
    const oldResumption = addMonths(period.end_date, 3);
    await at(oldResumption.getTime() + 60_000);
    const periods = (await charges(user.id)).map((c) => c.period_start?.getTime());
    expect(periods).not.toContain(oldResumption.getTime());
    expect(periods[0]).toBe(now.getTime());
  }, 60_000);

  it('withdrawn before it begins: the plan renews on its end date as before', async () => {
    const { user, headers, period } = await subscriber(t);
    expect((await pause(headers, period.id, 1)).statusCode).toBe(200);
    expect((await resume(headers, period.id)).json()).toEqual({ outcome: 'withdrawn' });
    await at(period.end_date.getTime() + 60_000);
    const [renewed] = await ownSubscriptions(t, user.id);
    expect(renewed?.end_date.toISOString()).toBe(addMonths(period.end_date, 1).toISOString());
    expect((await resume(headers, period.id)).statusCode).toBe(409);
  }, 60_000);

  it('a downgrade made while a pause waits is what the resumption charges', async () => {
    const { user, headers, period } = await subscriber(t, PLAN_CODES.family);
    expect((await pause(headers, period.id, 1)).statusCode).toBe(200);
    const change = await t.app.inject({
      method: 'POST',
      url: `/api/subscriptions/${period.id}/change`,
      headers,
      payload: { MerchantCode: PLAN_CODES.premium },
    });
    expect(change.json()).toMatchObject({ status: 'scheduled' });
    await at(addMonths(period.end_date, 1).getTime() + 60_000);
    expect(await charges(user.id)).toMatchObject([{ status: 'paid', amount: 6_900 }]);
  }, 60_000);

  it('Premium bought again during the pause: the paused plan ends at the resumption without a charge', async () => {
    const { user, headers, period } = await subscriber(t);
    expect((await pause(headers, period.id, 1)).statusCode).toBe(200);
    await at(period.end_date.getTime() + DAY);
    const again = await startCheckout(t, headers, PLAN_CODES.premium);
    await returnToShop(t, await payOnGateway(t, again.gatewayUrl, '4242 4242 4242 4242'));
    await at(addMonths(period.end_date, 1).getTime() + 60_000);
    expect(await charges(user.id)).toEqual([]);
    const [paused] = (await ownSubscriptions(t, user.id)).filter((s) => s.id === period.id);
    expect(paused).toMatchObject({ is_auto_renew: false, next_billing_at: null });
    expect(await activeSubscriptions(user.id)).toHaveLength(1);
  }, 60_000);

  it('is refused while a renewal is failing, without a card to charge, for a plan not renewing, or for someone else', async () => {
    const failing = await subscriber(t, undefined, FAILS_LATER_CARD);
    await at(failing.period.end_date.getTime() + 60_000);
    const pending = await pause(failing.headers, failing.period.id, 1);
    expect(pending.json()).toMatchObject({ error: 'renewal_pending' });

    const byLink = await subscriber(t);
    await t.app.inject({
      method: 'PUT',
      url: '/api/users/me/renewal-method',
      headers: byLink.headers,
      payload: { method: 'qpay' },
    });
    expect((await pause(byLink.headers, byLink.period.id, 1)).json()).toMatchObject({ error: 'needs_card' });
    expect((await pause(byLink.headers, byLink.period.id, 4)).statusCode).toBe(400);
    expect((await pause(failing.headers, byLink.period.id, 1)).statusCode).toBe(404);
  }, 60_000);

  // PGlite runs one transaction at a time, so there the burst cannot interleave the pause's
  // read and write; it still runs, to hold the answers and what is left to the same account.
  it(`${BURST} pause requests at once make one pause and one message${
    testDatabaseKind === 'pglite' ? ' (PGlite: one transaction at a time, no race)' : ''
  }`, async () => {
    const { user, headers, period } = await subscriber(t);
    const answers = await Promise.all(
      Array.from({ length: BURST }, (_, i) => pause(headers, period.id, (i % 3) + 1)),
    );
    const made = answers.filter((a) => a.statusCode === 200);
    const told = answers.map((a) => (a.statusCode === 200 ? '200' : `${a.statusCode} ${a.json().error}`));
    expect(new Set(told)).toEqual(new Set(['200', '409 already_paused']));
    expect(made).toHaveLength(1);
    const refused = answers.filter((a) => a.statusCode !== 200);
    expect(refused).toHaveLength(BURST - 1);
    expect(refused.every((a) => a.statusCode === 409 && a.json().error === 'already_paused')).toBe(true);
    const months = (made[0]?.json() as { months: number } | undefined)?.months;
    const rows = await t.db
      .selectFrom('subscription_pauses')
      .selectAll()
      .where('subscription_id', '=', period.id)
      .execute();
    expect(rows).toMatchObject([{ status: 'scheduled', months }]);
    const [s] = await ownSubscriptions(t, user.id);
    expect(s?.next_billing_at?.toISOString()).toBe(addMonths(period.end_date, months ?? 0).toISOString());
    expect(s?.end_date.toISOString()).toBe(period.end_date.toISOString());
    expect((await messagesTo(user.phone_number ?? '')).filter((m) => m.includes('pauses on'))).toHaveLength(
      1,
    );

    // Resume and pause again, at once: the plan ends either paused once or not paused, never twice,
    // and the renewal date is the one its live pause (or none) says.
    const mixed = await Promise.all(
      Array.from({ length: BURST }, (_, i) =>
        i % 2 === 0 ? resume(headers, period.id) : pause(headers, period.id, 1),
      ),
    );
    expect(mixed.filter((a) => a.statusCode !== 200 && a.statusCode !== 409).map((a) => a.body)).toEqual([]);
    const live = await t.db
      .selectFrom('subscription_pauses')
      .select(['status', 'resumes_at'])
      .where('subscription_id', '=', period.id)
      .where('status', '=', 'scheduled')
      .execute();
    const [after] = await ownSubscriptions(t, user.id);
    expect(live.length <= 1).toBe(true);
    expect(after?.end_date.toISOString()).toBe(period.end_date.toISOString());
    expect(after?.next_billing_at?.getTime()).toBe(
      live.length === 1 ? addMonths(period.end_date, 1).getTime() : period.end_date.getTime(),
    );
    // A pause's message is keyed by the instant it was made, which does not move within a burst:
    // the listener is told once, however often it was resumed and paused again meanwhile.
    expect((await messagesTo(user.phone_number ?? '')).filter((m) => m.includes('pauses on'))).toHaveLength(
      1,
    );
    expect(await charges(user.id)).toEqual([]);
  }, 120_000);

  /** The clock moved to `time` without running the jobs: what runs next races the resumption. */
  async function clockAt(time: number) {
    const moved = await t.app.inject({
      method: 'POST',
      url: '/dev/clock',
      payload: { advanceSeconds: Math.ceil((time - t.clock.now().getTime()) / 1000) },
    });
    expect(moved.statusCode, moved.body).toBe(200);
  }

  /** `BURST` early resumes with a job run every tenth request, at once. */
  const resumesAndJobs = (headers: Record<string, string>, id: string) =>
    Promise.all(
      Array.from({ length: BURST }, (_, i) =>
        i % 10 === 0 ? t.app.inject({ method: 'POST', url: '/dev/jobs/run-due' }) : resume(headers, id),
      ),
    );

  it(`${BURST} early resumes and job runs at once during the pause charge the card once`, async () => {
    const { user, headers, period } = await subscriber(t);
    expect((await pause(headers, period.id, 2)).statusCode).toBe(200);
    await at(period.end_date.getTime() + 5 * DAY);
    const racing = await resumesAndJobs(headers, period.id);
    expect(racing.map((a) => a.statusCode).filter((code) => code !== 200 && code !== 409)).toEqual([]);
    expect(racing.filter((a, i) => i % 10 !== 0 && a.statusCode === 200)).toHaveLength(1);
    const paid = await charges(user.id);
    expect(paid).toMatchObject([{ status: 'paid' }]);
    const [resumed] = await ownSubscriptions(t, user.id);
    expect(resumed?.end_date.toISOString()).toBe(
      addMonths(paid[0]?.period_start ?? new Date(0), 1).toISOString(),
    );
  }, 120_000);

  it(`${BURST} early resumes of 10 plans and job runs at once on the resumption day charge each card once`, async () => {
    const listeners: Awaited<ReturnType<typeof subscriber>>[] = [];
    for (let i = 0; i < 10; i++) listeners.push(await subscriber(t));
    for (const { headers, period } of listeners)
      expect((await pause(headers, period.id, 1)).statusCode).toBe(200);
    const first = listeners[0]?.period.end_date.getTime() ?? 0;
    await at(first + DAY);
    await clockAt(addMonths(new Date(first), 1).getTime() + 60_000);
    // Each plan's resumes (30 each) with the job's resumption scan among them, every tenth request.
    const racing = await Promise.all(
      Array.from({ length: BURST }, (_, i) => {
        const listener = listeners[Math.floor(i / 30)];
        if (!listener) throw new Error('30 requests for each of the 10 plans');
        const { headers, period } = listener;
        return i % 10 === 5
          ? t.app.inject({ method: 'POST', url: '/dev/jobs/run-due' })
          : resume(headers, period.id);
      }),
    );
    expect(
      racing
        .map((a) => `${a.statusCode} ${a.statusCode === 200 ? '' : a.body}`)
        .filter((a) => !/^(200|409) /.test(a)),
    ).toEqual([]);
    for (const { user, period } of listeners) {
      const paid = await charges(user.id);
      expect(paid).toMatchObject([{ status: 'paid' }]);
      const [resumed] = await ownSubscriptions(t, user.id);
      expect(resumed?.end_date.toISOString()).toBe(
        addMonths(paid[0]?.period_start ?? new Date(0), 1).toISOString(),
      );
      const pauses = await t.db
        .selectFrom('subscription_pauses')
        .select('status')
        .where('subscription_id', '=', period.id)
        .execute();
      expect(pauses).toEqual([{ status: 'ended' }]);
    }
  }, 120_000);
});
