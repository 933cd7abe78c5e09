import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { command as vouchersCreate } from '../../src/admin/commands/vouchers-create.js';
import { up as batchLooseVouchers } from '../../src/db/migrations/202612170740v_command_line_voucher_batches.js';
import { auditEntries, consoleCall, signedInOperator } from '../helpers/console.js';
import { createUser, PLAN_CODES, STORE, withPlans } from '../helpers/factories.js';
import { subscriber } from '../helpers/premium.js';
import { createTestApp, type TestApp } from '../helpers/test-app.js';

/** The console's defects of issue 36 on the server's side: feedback, receipt, names, CLI batches. */

let t: TestApp;
let support: { cookie: string; email: string; id: string };
let admin: { cookie: string; email: string; id: string };
let content: { cookie: string };
beforeAll(async () => {
  t = await createTestApp();
  await withPlans(t);
  support = await signedInOperator(t, 'support');
  admin = await signedInOperator(t, 'admin');
  content = await signedInOperator(t, 'content');
});
afterAll(async () => {
  await t.close();
});

async function sendFeedback(name: string, email: string, feedback: string) {
  const sent = await t.app.inject({
    method: 'POST',
    url: '/api/feedback',
    headers: STORE,
    payload: { name, email, feedback },
  });
  expect(sent.statusCode, sent.body).toBe(200);
}

interface FeedbackPage {
  entries: { id: string; name: string; email: string; preview: string; receivedAt: string }[];
  nextBefore: string | null;
}

describe('feedback in the console', () => {
  it('lists the contact page’s messages newest first, a page at a time, and reads one whole', async () => {
    const long = `Please add lyrics.${' More throat singing, please.'.repeat(10)}`;
    await sendFeedback('Bat', 'bat@example.mn', 'First message');
    await sendFeedback('Saraa', 'saraa@example.mn', 'Second message');
    await sendFeedback('Dorj', 'dorj@example.mn', long);
    const auditBefore = (await auditEntries(t, admin.cookie, 'feedback.read')).length;

    const first = await consoleCall(t, support.cookie, 'GET', '/api/admin/feedback?limit=2');
    expect(first.statusCode, first.body).toBe(200);
    const page1 = first.json() as FeedbackPage;
    expect(page1.entries.map((entry) => entry.name)).toEqual(['Dorj', 'Saraa']);
    expect(page1.entries[0]?.preview).toHaveLength(140);
    expect(page1.entries[0]?.preview.endsWith('…')).toBe(true);
    expect(page1.nextBefore).not.toBeNull();
    const second = await consoleCall(
      t,
      support.cookie,
      'GET',
      `/api/admin/feedback?limit=2&before=${page1.nextBefore}`,
    );
    const page2 = second.json() as FeedbackPage;
    expect(page2.entries.map((entry) => entry.name)).toEqual(['Bat']);
    expect(page2.nextBefore).toBeNull();

    const read = await consoleCall(t, admin.cookie, 'GET', `/api/admin/feedback/${page1.entries[0]?.id}`);
    expect(read.statusCode, read.body).toBe(200);
    expect(read.json()).toMatchObject({
      feedback: { name: 'Dorj', email: 'dorj@example.mn', feedback: long },
    });
    // Reading changes nothing: no audit entry.
    expect((await auditEntries(t, admin.cookie, 'feedback.read')).length).toBe(auditBefore);
  });

  it('is for support and admin only, with bounded input', async () => {
    expect((await consoleCall(t, content.cookie, 'GET', '/api/admin/feedback')).statusCode).toBe(403);
    expect((await consoleCall(t, content.cookie, 'GET', '/api/admin/feedback/1')).statusCode).toBe(403);
    expect((await t.app.inject({ method: 'GET', url: '/api/admin/feedback' })).statusCode).toBe(401);
    expect((await consoleCall(t, support.cookie, 'GET', '/api/admin/feedback?limit=101')).statusCode).toBe(
      400,
    );
    expect((await consoleCall(t, support.cookie, 'GET', '/api/admin/feedback?before=x')).statusCode).toBe(
      400,
    );
    expect((await consoleCall(t, support.cookie, 'GET', '/api/admin/feedback/abc')).statusCode).toBe(400);
    expect((await consoleCall(t, support.cookie, 'GET', '/api/admin/feedback/999999')).statusCode).toBe(404);
  });
});

describe('a receipt in the console', () => {
  it('shows a listener’s paid invoice to support, and nothing of another listener', async () => {
    const buyer = await subscriber(t, PLAN_CODES.premium);
    const url = `/api/admin/users/${buyer.user.id}/payments/${buyer.invoiceId}/receipt`;
    const answer = await consoleCall(t, support.cookie, 'GET', url);
    expect(answer.statusCode, answer.body).toBe(200);
    expect(answer.json()).toMatchObject({
      invoiceId: buyer.invoiceId,
      status: 'paid',
      buyer: { phone: buyer.user.phone_number },
    });
    const stranger = await createUser(t.db);
    const other = `/api/admin/users/${stranger.id}/payments/${buyer.invoiceId}/receipt`;
    expect((await consoleCall(t, support.cookie, 'GET', other)).statusCode).toBe(404);
    expect((await consoleCall(t, content.cookie, 'GET', url)).statusCode).toBe(403);
  });
});

describe('the audit log', () => {
  it('names what each entry touched, the ids kept', async () => {
    const listener = await createUser(t.db, { first_name: 'Tsetseg', last_name: 'Bold' });
    const ended = await consoleCall(
      t,
      support.cookie,
      'POST',
      `/api/admin/users/${listener.id}/sessions/end`,
      {},
    );
    expect(ended.statusCode, ended.body).toBe(200);
    const made = await consoleCall(t, admin.cookie, 'POST', '/api/admin/operators', {
      email: 'named-operator@ops.example.mn',
      role: 'content',
    });
    expect(made.statusCode, made.body).toBe(201);
    const answer = await consoleCall(t, admin.cookie, 'GET', '/api/admin/audit?limit=100');
    const { entries } = answer.json() as {
      entries: { action: string; targetId: string | null; targetName: string | null }[];
    };
    const signOut = entries.find(
      (entry) => entry.action === 'user.sessions.end' && entry.targetId === listener.id,
    );
    expect(signOut?.targetName).toBe(`Tsetseg Bold (${listener.phone_number ?? listener.primary_email})`);
    const created = entries.find((entry) => entry.action === 'operator.create');
    expect(created?.targetName).toBe('named-operator@ops.example.mn');
    expect(created?.targetId).toMatch(/^[0-9a-f-]{36}$/);
  });
});

describe('a voucher batch made on the command line', () => {
  it('is listed in the console as the command line’s, to download and revoke', async () => {
    const lines: string[] = [];
    await vouchersCreate.run(
      ['--package', PLAN_CODES.premium, '--days', '7', '--count', '2', '--note', 'Radio partner'],
      { config: t.config, db: async () => t.db, print: (line) => lines.push(line) },
    );
    const codes = lines.slice(1);
    expect(codes).toHaveLength(2);
    const listed = await consoleCall(t, admin.cookie, 'GET', '/api/admin/vouchers/batches');
    const { batches } = listed.json() as {
      batches: {
        id: string;
        note: string | null;
        createdBy: string | null;
        count: number;
        expiresAt: string | null;
      }[];
    };
    const batch = batches.find((found) => found.note === 'Radio partner');
    expect(batch).toMatchObject({ createdBy: null, count: 2, expiresAt: null });
    const csv = await consoleCall(
      t,
      admin.cookie,
      'GET',
      `/api/admin/vouchers/batches/${batch?.id}/codes.csv`,
    );
    for (const code of codes) expect(csv.body).toContain(`${code},${PLAN_CODES.premium},7,,unused`);
    const revoked = await consoleCall(
      t,
      admin.cookie,
      'POST',
      `/api/admin/vouchers/batches/${batch?.id}/revoke`,
      {},
    );
    expect(revoked.json()).toMatchObject({ revokedNow: 2 });
  });

  it('takes in codes made on the command line before it made batches, one batch per run', async () => {
    const made = await t.app.inject({
      method: 'POST',
      url: '/dev/vouchers',
      payload: { package: PLAN_CODES.premium, days: 5, count: 3 },
    });
    expect(made.statusCode, made.body).toBe(201);
    const { codes } = made.json() as { codes: string[] };
    const loose = await t.db.selectFrom('vouchers').select('batch_id').where('code', 'in', codes).execute();
    expect(loose.map((row) => row.batch_id)).toEqual([null, null, null]);

    await batchLooseVouchers(t.db as never);
    const batched = await t.db.selectFrom('vouchers').select('batch_id').where('code', 'in', codes).execute();
    const ids = new Set(batched.map((row) => row.batch_id));
    expect(ids.size).toBe(1);
    const listed = await consoleCall(t, admin.cookie, 'GET', '/api/admin/vouchers/batches');
    const { batches } = listed.json() as {
      batches: { id: string; days: number; count: number; createdBy: string | null }[];
    };
    expect(batches.find((batch) => ids.has(batch.id))).toMatchObject({ days: 5, count: 3, createdBy: null });
  });
});
