import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { lastMessage, requestOtp } from '../helpers/accounts.js';
import { auditEntries, consoleCall, signedInOperator } from '../helpers/console.js';
import { createUser, DAY_MS, PLAN_CODES, randomMsisdn, STORE, withPlans } from '../helpers/factories.js';
import { subscriber } from '../helpers/premium.js';
import { createTestApp, type TestApp } from '../helpers/test-app.js';

let t: TestApp;
let support: { cookie: string; email: string };
let admin: { cookie: string; email: string };
beforeAll(async () => {
  t = await createTestApp();
  await withPlans(t);
  support = await signedInOperator(t, 'support');
  admin = await signedInOperator(t, 'admin');
});
afterAll(async () => {
  await t.close();
});

/** Operators sign in anew after a test moves the clock past their sessions' idle end. */
async function signInAgain() {
  support = await signedInOperator(t, 'support');
  admin = await signedInOperator(t, 'admin');
}

const profileOf = async (userId: string) => {
  const answer = await t.app.inject({
    method: 'GET',
    url: `/api/users/${userId}/profile`,
    headers: { ...STORE, ...(await t.authHeader(userId)) },
  });
  expect(answer.statusCode, answer.body).toBe(200);
  return answer.json() as {
    Subscriptions: { SubscriptionId: string; EndDate: string; IsAutoRenew: boolean }[];
  };
};

describe('support', () => {
  it('finds a listener by phone, e-mail or id and sees their subscriptions, payments and messages', async () => {
    const buyer = await subscriber(t);
    const phone = buyer.user.phone_number ?? '';
    for (const q of [phone, phone.slice(3), buyer.user.id]) {
      const found = await consoleCall(
        t,
        support.cookie,
        'GET',
        `/api/admin/users?q=${encodeURIComponent(q)}`,
      );
      expect(found.json(), q).toMatchObject({ users: [{ id: buyer.user.id, msisdn: phone }] });
    }
    const mailer = await createUser(t.db, {
      primary_email: 'Saraa@Example.mn'.toLowerCase(),
      phone_number: null,
    });
    const byMail = await consoleCall(t, support.cookie, 'GET', '/api/admin/users?q=SARAA%40example.mn');
    expect(byMail.json()).toMatchObject({ users: [{ id: mailer.id }] });

    const detail = await consoleCall(t, support.cookie, 'GET', `/api/admin/users/${buyer.user.id}`);
    expect(detail.statusCode, detail.body).toBe(200);
    expect(detail.json()).toMatchObject({
      user: { id: buyer.user.id },
      subscriptions: [
        { id: buyer.period.id, packageCode: PLAN_CODES.premium, status: 'active', role: 'owner' },
      ],
      payments: [{ invoiceId: buyer.invoiceId, status: 'paid', method: 'card', refundedAt: null }],
    });
    expect((await consoleCall(t, support.cookie, 'GET', '/api/admin/users/not-an-id')).statusCode).toBe(404);
  });

  it('shows the owner of a family plan no one has joined yet as its owner, with its seats', async () => {
    const owner = await subscriber(t, PLAN_CODES.family);
    const detail = await consoleCall(t, support.cookie, 'GET', `/api/admin/users/${owner.user.id}`);
    expect(detail.statusCode, detail.body).toBe(200);
    expect(detail.json()).toMatchObject({
      family: [{ subscriptionId: owner.period.id, owner: { id: owner.user.id }, members: [], seats: 3 }],
    });
    // A single plan shares nothing.
    const single = await subscriber(t, PLAN_CODES.premium);
    const alone = await consoleCall(t, support.cookie, 'GET', `/api/admin/users/${single.user.id}`);
    expect(alone.json()).toMatchObject({ family: [] });
  });

  it("extends a period by N days, which the listener's profile shows, and audits it", async () => {
    const buyer = await subscriber(t);
    const before = await profileOf(buyer.user.id);
    const end = new Date(before.Subscriptions[0]?.EndDate ?? 0).getTime();
    const answer = await consoleCall(
      t,
      support.cookie,
      'POST',
      `/api/admin/users/${buyer.user.id}/subscriptions/${buyer.period.id}/extend`,
      { days: 10 },
    );
    expect(answer.statusCode, answer.body).toBe(200);
    const after = await profileOf(buyer.user.id);
    expect(new Date(after.Subscriptions[0]?.EndDate ?? 0).getTime()).toBe(end + 10 * DAY_MS);
    const entries = await auditEntries(t, admin.cookie, 'user.extend');
    expect(entries[0]).toMatchObject({
      targetId: buyer.period.id,
      operator: { email: support.email },
      before: { endDate: new Date(end).toISOString() },
      after: { endDate: new Date(end + 10 * DAY_MS).toISOString(), days: 10 },
    });
    const tooMany = await consoleCall(
      t,
      support.cookie,
      'POST',
      `/api/admin/users/${buyer.user.id}/subscriptions/${buyer.period.id}/extend`,
      { days: 1000 },
    );
    expect(tooMany.statusCode).toBe(400);
  });

  it('caps a support extension at 31 days per action and per subscription in any 30 days, even 60 at once', async () => {
    const buyer = await subscriber(t);
    const url = `/api/admin/users/${buyer.user.id}/subscriptions/${buyer.period.id}/extend`;
    const end = async () =>
      new Date((await profileOf(buyer.user.id)).Subscriptions[0]?.EndDate ?? 0).getTime();
    const before = await end();

    const long = await consoleCall(t, support.cookie, 'POST', url, { days: 32 });
    expect(long.statusCode).toBe(403);
    expect(long.json()).toMatchObject({ error: 'extension_cap', message: expect.stringMatching(/31 days/) });
    // Every refusal is in the audit log, with the cap it met.
    expect((await auditEntries(t, admin.cookie, 'user.extend.refused'))[0]).toMatchObject({
      targetId: buyer.period.id,
      operator: { email: support.email },
      after: { days: 32, cap: 31 },
    });

    const answers = await Promise.all(
      Array.from({ length: 60 }, () => consoleCall(t, support.cookie, 'POST', url, { days: 1 })),
    );
    const statuses = answers.map((answer) => answer.statusCode).sort();
    expect(statuses).toEqual([...Array(31).fill(200), ...Array(29).fill(403)]);
    const refused = answers.filter((answer) => answer.statusCode !== 200);
    expect(refused[0]?.json()).toMatchObject({
      error: 'extension_cap',
      message: expect.stringMatching(/31 days/),
    });
    expect(await end()).toBe(before + 31 * DAY_MS);

    const log = await consoleCall(
      t,
      admin.cookie,
      'GET',
      `/api/admin/audit?limit=100&targetId=${buyer.period.id}`,
    );
    const actions = (log.json() as { entries: { action: string }[] }).entries.map((entry) => entry.action);
    expect(actions.filter((action) => action === 'user.extend')).toHaveLength(31);
    expect(actions.filter((action) => action === 'user.extend.refused')).toHaveLength(30);

    // An admin may give more; 30 days later support may extend again.
    const byAdmin = await consoleCall(t, admin.cookie, 'POST', url, { days: 300 });
    expect(byAdmin.statusCode, byAdmin.body).toBe(200);
    t.clock.advance(30 * DAY_MS + 1000);
    await signInAgain();
    const again = await consoleCall(t, support.cookie, 'POST', url, { days: 31 });
    expect(again.statusCode, again.body).toBe(200);
  });

  it('caps an admin extension at 366 days per subscription in any 30 days', async () => {
    const buyer = await subscriber(t);
    const url = `/api/admin/users/${buyer.user.id}/subscriptions/${buyer.period.id}/extend`;
    expect((await consoleCall(t, admin.cookie, 'POST', url, { days: 366 })).statusCode).toBe(200);
    const more = await consoleCall(t, admin.cookie, 'POST', url, { days: 1 });
    expect(more.statusCode).toBe(403);
    expect(more.json()).toMatchObject({ error: 'extension_cap', message: expect.stringMatching(/366 days/) });
  });

  it('resends one receipt at most 5 times an hour per operator, and audits the refusal', async () => {
    const buyer = await subscriber(t);
    const url = `/api/admin/users/${buyer.user.id}/payments/${buyer.invoiceId}/resend-receipt`;
    const receipts = () =>
      t.db
        .selectFrom('outbox_messages')
        .select('id')
        .where('user_id', '=', buyer.user.id)
        .where('text', 'like', `%/receipts/${buyer.invoiceId}%`)
        .execute();
    const before = (await receipts()).length;
    const answers = await Promise.all(
      Array.from({ length: 8 }, () => consoleCall(t, support.cookie, 'POST', url, {})),
    );
    expect(answers.filter((answer) => answer.statusCode === 200)).toHaveLength(5);
    const refused = answers.filter((answer) => answer.statusCode === 429);
    expect(refused).toHaveLength(3);
    expect(refused[0]?.headers['retry-after']).toBeDefined();
    expect(await receipts()).toHaveLength(before + 5);
    const refusals = (await auditEntries(t, admin.cookie, 'user.receipt.resend.refused')).filter(
      (entry) => entry.targetId === buyer.invoiceId,
    );
    expect(refusals).toHaveLength(3);
    t.clock.advance(61 * 60_000);
    await signInAgain();
    expect((await consoleCall(t, support.cookie, 'POST', url, {})).statusCode).toBe(200);
  });

  it('shows sent codes and the tokens of links masked', async () => {
    const email = `masked-${Date.now()}@example.mn`;
    const phone = randomMsisdn();
    const listener = await createUser(t.db, { username: email, primary_email: email, phone_number: phone });
    const asked = await requestOtp(t, { msisdn: phone });
    expect(asked.statusCode, asked.body).toBe(200);
    const { code } = await lastMessage(t, phone);
    const forgot = await t.app.inject({
      method: 'POST',
      url: '/api/users/forgot-password',
      headers: STORE,
      payload: { Email: email, Language: 'en' },
    });
    expect(forgot.statusCode).toBe(200);
    const token = new URL((await lastMessage(t, email)).link ?? '').searchParams.get('token') ?? '';
    expect(token.length).toBeGreaterThan(20);

    const detail = await consoleCall(t, support.cookie, 'GET', `/api/admin/users/${listener.id}`);
    const texts = (detail.json() as { messages: { text: string }[] }).messages.map((m) => m.text);
    expect(texts).toHaveLength(2);
    expect(texts.join('\n')).not.toContain(code ?? '');
    expect(texts.join('\n')).not.toContain(token);
    expect(texts).toContainEqual(expect.stringMatching(/^Your Tunes code is ••••\./));
    expect(texts).toContainEqual(expect.stringMatching(/\/reset-password\?token=••••\s/));
  });

  it('cancels renewal or ends the period now, resends a receipt and ends sessions', async () => {
    const buyer = await subscriber(t);
    const base = `/api/admin/users/${buyer.user.id}`;
    const soft = await consoleCall(
      t,
      support.cookie,
      'POST',
      `${base}/subscriptions/${buyer.period.id}/cancel`,
      {
        immediately: false,
      },
    );
    expect(soft.json()).toMatchObject({ subscription: { autoRenew: false, status: 'active' } });
    const hard = await consoleCall(
      t,
      support.cookie,
      'POST',
      `${base}/subscriptions/${buyer.period.id}/cancel`,
      {
        immediately: true,
      },
    );
    expect(hard.json()).toMatchObject({ subscription: { status: 'cancelled' } });
    expect((await profileOf(buyer.user.id)).Subscriptions).toEqual([]);

    const resent = await consoleCall(
      t,
      support.cookie,
      'POST',
      `${base}/payments/${buyer.invoiceId}/resend-receipt`,
      {},
    );
    expect(resent.statusCode, resent.body).toBe(200);
    expect(resent.json()).toEqual({ sentTo: [buyer.user.phone_number] });
    const detail = (await consoleCall(t, support.cookie, 'GET', base)).json() as {
      messages: { text: string }[];
    };
    expect(detail.messages[0]?.text).toContain(`/receipts/${buyer.invoiceId}`);

    const ended = await consoleCall(t, support.cookie, 'POST', `${base}/sessions/end`, {});
    expect(ended.statusCode).toBe(200);
    for (const action of ['user.cancel', 'user.receipt.resend', 'user.sessions.end']) {
      expect(await auditEntries(t, admin.cookie, action), action).not.toHaveLength(0);
    }
  });
});

describe('admin', () => {
  it('makes a voucher batch, downloads its CSV, and revokes the unused codes', async () => {
    const packages = (await consoleCall(t, admin.cookie, 'GET', '/api/admin/vouchers/packages')).json() as {
      packages: { code: string }[];
    };
    expect(packages.packages.map((p) => p.code)).toContain(PLAN_CODES.premium);
    const expiresAt = new Date(t.clock.now().getTime() + 30 * DAY_MS).toISOString();
    const made = await consoleCall(t, admin.cookie, 'POST', '/api/admin/vouchers/batches', {
      packageCode: PLAN_CODES.premium,
      days: 30,
      count: 5,
      expiresAt,
      note: 'Partner X',
    });
    expect(made.statusCode, made.body).toBe(201);
    const { batch } = made.json() as { batch: { id: string; count: number } };
    expect(batch.count).toBe(5);
    const unknown = await consoleCall(t, admin.cookie, 'POST', '/api/admin/vouchers/batches', {
      packageCode: 'NOPE',
      days: 30,
      count: 5,
      expiresAt,
    });
    expect(unknown.json()).toMatchObject({ field: 'packageCode' });

    const csv = await consoleCall(
      t,
      admin.cookie,
      'GET',
      `/api/admin/vouchers/batches/${batch.id}/codes.csv`,
    );
    expect(csv.headers['content-type']).toContain('text/csv');
    expect(csv.headers['content-disposition']).toContain('attachment');
    const lines = csv.body.trim().split('\r\n');
    expect(lines[0]).toBe('code,package,days,expires_at,status');
    expect(lines).toHaveLength(6);
    const codes = lines.slice(1).map((line) => line.split(',')[0] ?? '');

    const listener = await createUser(t.db);
    const headers = { ...STORE, ...(await t.authHeader(listener.id)) };
    const redeemed = await t.app.inject({
      method: 'POST',
      url: `/api/users/redeemvoucher?code=${codes[0]}`,
      headers,
    });
    expect(redeemed.statusCode, redeemed.body).toBe(200);

    const revoked = await consoleCall(
      t,
      admin.cookie,
      'POST',
      `/api/admin/vouchers/batches/${batch.id}/revoke`,
      {},
    );
    expect(revoked.json()).toMatchObject({ revokedNow: 4, batch: { redeemed: 1, revoked: 4 } });
    const other = await createUser(t.db);
    const refused = await t.app.inject({
      method: 'POST',
      url: `/api/users/redeemvoucher?code=${codes[1]}`,
      headers: { ...STORE, ...(await t.authHeader(other.id)) },
    });
    expect(refused.statusCode).toBe(400);
    const after = await consoleCall(
      t,
      admin.cookie,
      'GET',
      `/api/admin/vouchers/batches/${batch.id}/codes.csv`,
    );
    expect(after.body).toContain(`${codes[0]},${PLAN_CODES.premium},30,`);
    expect(after.body.match(/,revoked/g)).toHaveLength(4);
    expect(after.body.match(/,redeemed/g)).toHaveLength(1);
    expect(await auditEntries(t, admin.cookie, 'voucher.batch.create')).not.toHaveLength(0);
    expect(await auditEntries(t, admin.cookie, 'voucher.batch.revoke')).not.toHaveLength(0);
  });

  it('shows purchases on the dashboard: active by plan, new per day and revenue by method', async () => {
    const fresh = await createTestApp();
    try {
      await withPlans(fresh);
      const boss = await signedInOperator(fresh, 'admin');
      await subscriber(fresh, PLAN_CODES.premium);
      await subscriber(fresh, PLAN_CODES.premium);
      const family = await subscriber(fresh, PLAN_CODES.family);
      const answer = await consoleCall(fresh, boss.cookie, 'GET', '/api/admin/dashboard?days=30');
      expect(answer.statusCode, answer.body).toBe(200);
      const figures = answer.json() as {
        activeByPlan: { packageCode: string; count: number }[];
        daily: { date: string; new: number; lapsed: number }[];
        revenue: { method: string; amount: number; date: string }[];
      };
      expect(figures.daily).toHaveLength(30);
      // Days are Ulaanbaatar's (UTC+8).
      const today = new Date(fresh.clock.now().getTime() + 8 * 3_600_000).toISOString().slice(0, 10);
      expect(figures.daily.at(-1)).toEqual({ date: today, new: 3, lapsed: 0 });
      expect(figures.activeByPlan).toEqual(
        expect.arrayContaining([
          expect.objectContaining({ packageCode: PLAN_CODES.premium, count: 2 }),
          expect.objectContaining({ packageCode: PLAN_CODES.family, count: 1 }),
        ]),
      );
      const paid = await fresh.db
        .selectFrom('payment_invoices')
        .select('amount')
        .where('status', '=', 'paid')
        .execute();
      expect(figures.revenue).toEqual([
        expect.objectContaining({
          date: today,
          method: 'card',
          amount: paid.reduce((sum, row) => sum + row.amount, 0),
        }),
      ]);
      const year = await consoleCall(fresh, boss.cookie, 'GET', '/api/admin/dashboard?days=365');
      expect((year.json() as { daily: unknown[] }).daily).toHaveLength(365);
      expect(family.period.id).toBeTruthy();
    } finally {
      await fresh.close();
    }
  });

  it('pages the audit log', async () => {
    const first = await consoleCall(t, admin.cookie, 'GET', '/api/admin/audit?limit=2');
    const page = first.json() as { entries: { id: string }[]; nextBefore: string | null };
    expect(page.entries).toHaveLength(2);
    expect(page.nextBefore).toBe(page.entries[1]?.id);
    const second = await consoleCall(
      t,
      admin.cookie,
      'GET',
      `/api/admin/audit?limit=2&before=${page.nextBefore}`,
    );
    const next = second.json() as { entries: { id: string }[] };
    expect(Number(next.entries[0]?.id)).toBeLessThan(Number(page.nextBefore));
  });
});
