import { execFile } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import type { APIRequestContext, Locator, Page } from '@playwright/test';
import { baseUrl, bearer, expect, randomEmail, STORE, signInByApi } from '../fixtures';
import { startOwnServer, testOnOwnServer as test } from '../own-server';
import { audit } from './a11y-helpers';
import {
  CONSOLE,
  consolePage,
  createOperator,
  expectNoMissingTranslations,
  navLinks,
} from './console-helpers';

/**
 * The operator console's defects of issue 36, each as an operator meets it, in Chromium on a
 * server of its own (the dashboard, feedback and audit log count only this file's doings). The
 * tests run in order: the dashboard's reads the purchase of the receipt's.
 */
test.describe.configure({ mode: 'serial' });

const ADMIN_CLI = fileURLToPath(new URL('../../apps/server/dist/admin/cli.js', import.meta.url));
const E2E_DIR = fileURLToPath(new URL('..', import.meta.url));
const PAID_CARD = '4242 4242 4242 4242';

interface Box {
  name: string;
  x: number;
  y: number;
  width: number;
  height: number;
}

/** Where a control lies on the page (not the viewport), and the page's width. */
async function boxOf(name: string, locator: Locator): Promise<Box> {
  await expect(locator, `${name} is visible`).toBeVisible();
  const box = await locator.evaluate((element) => {
    const rect = element.getBoundingClientRect();
    return {
      x: rect.left + window.scrollX,
      y: rect.top + window.scrollY,
      width: rect.width,
      height: rect.height,
    };
  });
  return { name, ...box };
}

const overlap = (a: Box, b: Box) =>
  Math.max(0, Math.min(a.x + a.width, b.x + b.width) - Math.max(a.x, b.x)) *
  Math.max(0, Math.min(a.y + a.height, b.y + b.height) - Math.max(a.y, b.y));

/** The voucher form's labels and controls: visible, apart, inside the page's width, usable. */
async function expectVoucherFormLaidOut(page: Page): Promise<Box[]> {
  const form = page.getByRole('form', { name: 'New batch' });
  const fields = ['Plan', 'Days', 'Codes', 'Expires', 'Note (optional)'];
  const boxes: Box[] = [];
  for (const name of fields) {
    boxes.push(await boxOf(`${name} field`, form.getByLabel(name, { exact: true })));
    boxes.push(await boxOf(`${name} label`, form.locator('label', { hasText: name })));
  }
  boxes.push(await boxOf('Create batch', form.getByRole('button', { name: 'Create batch' })));
  const width = await page.evaluate(() => document.documentElement.clientWidth);
  expect(
    await page.evaluate(() => document.documentElement.scrollWidth),
    'no sideways scroll',
  ).toBeLessThanOrEqual(width);
  for (const box of boxes) {
    expect(box.x, `${box.name} starts inside the page`).toBeGreaterThanOrEqual(0);
    expect(box.x + box.width, `${box.name} ends inside the page`).toBeLessThanOrEqual(width + 0.5);
  }
  for (const [index, a] of boxes.entries()) {
    for (const b of boxes.slice(index + 1)) expect(overlap(a, b), `${a.name} and ${b.name} overlap`).toBe(0);
  }
  for (const name of fields) {
    const control = boxes.find((box) => box.name === `${name} field`);
    const label = boxes.find((box) => box.name === `${name} label`);
    expect(control?.width ?? 0, `${name} is wide enough to use`).toBeGreaterThanOrEqual(120);
    expect(label?.y ?? 0, `${name}'s label is above its field`).toBeLessThan(control?.y ?? 0);
    expect(
      (control?.y ?? 0) - ((label?.y ?? 0) + (label?.height ?? 0)),
      `${name}'s label is by its field`,
    ).toBeLessThan(24);
  }
  return boxes;
}

test('(a) the voucher form is laid out on a desktop (1440 px) and a phone (360 px)', async ({
  browser,
  request,
  baseURL,
}) => {
  const admin = await consolePage(browser, baseURL ?? baseUrl(), await createOperator(request, 'admin'));
  await admin.getByRole('link', { name: 'Vouchers' }).click();
  await expect(admin.getByRole('heading', { level: 1, name: 'Vouchers' })).toBeVisible();
  await expect(admin.getByLabel('Plan', { exact: true })).not.toHaveValue('');

  const desktop = await expectVoucherFormLaidOut(admin);
  const findings = await audit(admin, 'vouchers at 1440 px');
  // On a desktop the short fields share a row.
  const tops = ['Plan', 'Days', 'Codes', 'Expires'].map(
    (name) => desktop.find((box) => box.name === `${name} field`)?.y ?? -1,
  );
  expect(new Set(tops.map(Math.round)).size, 'Plan, Days, Codes and Expires on one row').toBe(1);

  await admin.setViewportSize({ width: 360, height: 800 });
  const phone = await expectVoucherFormLaidOut(admin);
  // On a phone they stack, each as wide as the form.
  const days = phone.find((box) => box.name === 'Days field');
  const plan = phone.find((box) => box.name === 'Plan field');
  expect(days?.y ?? 0).toBeGreaterThan(plan?.y ?? 0);
  expect(Math.round(days?.width ?? 0)).toBe(Math.round(plan?.width ?? -1));
  findings.push(...(await audit(admin, 'vouchers at 360 px')));
  expect(findings, 'serious accessibility findings').toEqual([]);

  // A wrong value is named on its field, in the console's words; the form still works.
  await admin.getByLabel('Days', { exact: true }).fill('400');
  await admin.getByRole('button', { name: 'Create batch' }).click();
  await expect(admin.getByText('At most 366.')).toBeVisible();
  await expect(admin.getByLabel('Days', { exact: true })).toHaveAttribute('aria-invalid', 'true');
  await expectVoucherFormLaidOut(admin);
  await admin.getByLabel('Days', { exact: true }).fill('30');
  await admin.getByLabel('Codes', { exact: true }).fill('2');
  await admin.getByRole('button', { name: 'Create batch' }).click();
  await expect(admin.getByText('2 codes created.')).toBeVisible();
  expectNoMissingTranslations(admin);
});

test('(b) a voucher batch made on the command line shows in the console, to download and revoke', async ({
  browser,
  request,
}) => {
  // Two starts of a server and the command line between them.
  test.setTimeout(180_000);
  const dataDir = mkdtempSync(path.join(tmpdir(), 'tunes-e2e-cli-batch-'));
  // The first start makes the database and its plans; the command line opens it once it stops.
  await (await startOwnServer({ DATA_DIR: dataDir })).stop();
  const note = `Radio partner ${Date.now().toString(36)}`;
  const { stdout } = await promisify(execFile)(
    process.execPath,
    [ADMIN_CLI, 'vouchers:create', '--package', 'PREMIUM_1M', '--days', '14', '--count', '3', '--note', note],
    { cwd: E2E_DIR, env: { ...process.env, NODE_ENV: 'development', DATA_DIR: dataDir, DATABASE_URL: '' } },
  );
  const codes = stdout.trim().split('\n').slice(1);
  expect(codes).toHaveLength(3);

  const server = await startOwnServer({ DATA_DIR: dataDir });
  try {
    const admin = await consolePage(
      browser,
      server.origin,
      await createOperator(request, 'admin', server.origin),
    );
    await admin.getByRole('link', { name: 'Vouchers' }).click();
    const row = admin.getByRole('table', { name: 'Batches' }).getByRole('row').filter({ hasText: note });
    await expect(row).toHaveCount(1);
    await expect(row).toContainText('PREMIUM_1M');
    await expect(row).toContainText('Command line');
    await expect(row.getByRole('cell').nth(2)).toHaveText('14');
    await expect(row.getByRole('cell').nth(3)).toHaveText('3');

    const href = (await row.getByRole('link', { name: 'CSV' }).getAttribute('href')) ?? '';
    const csv = await (await admin.request.get(href)).text();
    for (const code of codes) expect(csv).toContain(`${code},PREMIUM_1M,14,,unused`);

    await row.getByRole('button', { name: 'Revoke unused' }).click();
    await admin.getByRole('alertdialog').getByRole('button', { name: 'Revoke unused' }).click();
    await expect(admin.getByText('3 codes revoked.')).toBeVisible();
    await expect(row).toContainText('0 / 3');
    expectNoMissingTranslations(admin);
  } finally {
    await server.stop();
  }
});

/** Buys Premium on /premium with a card in the sandbox gateway; the invoice's id. */
async function buyPremium(page: Page): Promise<string> {
  await page.goto('/premium');
  await page
    .getByRole('article', { name: 'Premium', exact: true })
    .getByRole('button', { name: 'Get package' })
    .click();
  await expect(page).toHaveURL(/\/sandbox-gateway\/payment\?token=/);
  await page.getByLabel('Card number').fill(PAID_CARD);
  await page.getByLabel('Expiry (MM/YY)').fill('12/39');
  await page.getByLabel('CVC').fill('123');
  await page.getByRole('button', { name: /^Pay / }).click();
  await expect(page).toHaveURL(/\/success\?invoiceId=/);
  return new URL(page.url()).searchParams.get('invoiceId') ?? '';
}

test('(c) the receipt link of a payment opens its receipt in the console, not the landing page', async ({
  page,
  request,
  browser,
  baseURL,
  signIn,
}) => {
  test.setTimeout(120_000);
  const origin = baseURL ?? baseUrl();
  const listener = await signIn();
  const invoiceId = await buyPremium(page);
  expect(invoiceId).not.toBe('');

  const support = await consolePage(browser, origin, await createOperator(request, 'support'));
  await support.goto(`/admin/support/users/${encodeURIComponent(listener.sub)}`);
  const payment = support
    .getByRole('table', { name: 'Payments' })
    .getByRole('row')
    .filter({ hasText: 'Paid' });
  await payment.getByRole('link', { name: 'Receipt' }).click();

  await expect(support).toHaveURL(
    new RegExp(`/admin/support/users/${listener.sub}/receipts/${encodeURIComponent(invoiceId)}$`),
  );
  await expect(support.getByRole('heading', { level: 1, name: 'Receipt' })).toBeVisible();
  await expect(support.getByTestId('receipt-invoice')).toHaveText(invoiceId);
  await expect(support.getByTestId('receipt-amount')).toContainText('₮');
  expect(await audit(support, 'receipt'), 'serious accessibility findings').toEqual([]);
  await expect(support.getByRole('article', { name: 'Receipt' })).toContainText(listener.msisdn);
  // Not the listener's site: no landing page, and back leads to the listener in the console.
  await expect(support.getByRole('navigation', { name: 'Console' })).toBeVisible();
  await support.getByRole('link', { name: 'Back to the listener' }).click();
  await expect(support.getByRole('heading', { level: 2, name: 'Payments' })).toBeVisible();

  // The receipt is support's to read: a content operator is refused it.
  const content = await consolePage(browser, origin, await createOperator(request, 'content'));
  const refused = await content.request.get(
    `/api/admin/users/${listener.sub}/payments/${encodeURIComponent(invoiceId)}/receipt`,
  );
  expect(refused.status()).toBe(403);
  expectNoMissingTranslations(support);
});

/** A listener of its own holds `plan` through a voucher (`/dev/vouchers`, then the listener's redeem). */
async function holdByVoucher(request: APIRequestContext, plan: string) {
  const listener = await signInByApi(request);
  const made = await request.post(`${baseUrl()}/dev/vouchers`, {
    data: { package: plan, days: 30, count: 1 },
  });
  expect(made.status()).toBe(201);
  const [code] = ((await made.json()) as { codes: string[] }).codes;
  const redeemed = await request.post(`${baseUrl()}/api/users/redeemvoucher`, {
    headers: bearer(listener.access_token),
    params: { code: code ?? '' },
  });
  expect(redeemed.ok(), await redeemed.text()).toBe(true);
}

test('(e) the dashboard charts count from 0', async ({ browser, request, baseURL }) => {
  test.setTimeout(120_000);
  // Premium held twice (the purchase above and a voucher), Premium Duo once: each plan's bar is
  // at least 1 and they differ, so a chart ranging over its data alone starts near 1, not 0.
  await holdByVoucher(request, 'PREMIUM_1M');
  await holdByVoucher(request, 'PREMIUM_DUO_1M');
  const admin = await consolePage(browser, baseURL ?? baseUrl(), await createOperator(request, 'admin'));
  const answer = (await (await admin.request.get('/api/admin/dashboard?days=30')).json()) as {
    activeByPlan: { count: number }[];
  };
  const counts = answer.activeByPlan.map((row) => row.count);
  expect(counts.length).toBeGreaterThan(1);
  expect(Math.min(...counts)).toBeGreaterThanOrEqual(1);
  expect(Math.max(...counts)).toBeGreaterThan(Math.min(...counts));

  await admin.getByRole('link', { name: 'Dashboard' }).click();
  const charts = admin.locator('.admin-chart');
  await expect(charts).toHaveCount(3);
  for (const name of [
    'Active subscriptions by plan',
    'New and lapsed subscriptions per day',
    'Revenue per day by method',
  ]) {
    const chart = admin.getByRole('img', { name, exact: true });
    await expect(chart, name).toHaveAttribute('data-y-from', '0');
    expect(Number(await chart.getAttribute('data-y-to')), name).toBeGreaterThan(0);
  }
  await admin.getByRole('button', { name: '365 days' }).click();
  await expect(admin.getByRole('button', { name: '365 days' })).toHaveAttribute('aria-pressed', 'true');
  await expect(admin.getByRole('img', { name: 'Active subscriptions by plan', exact: true })).toHaveAttribute(
    'data-y-from',
    '0',
  );
  expectNoMissingTranslations(admin);
});

test('(d) feedback sent through the contact page is read in the console, a page at a time', async ({
  page,
  request,
  browser,
  baseURL,
}) => {
  test.setTimeout(120_000);
  const origin = baseURL ?? baseUrl();
  const stamp = Date.now().toString(36);
  // Eleven older messages (five per address an hour), then one through the contact page.
  for (let index = 0; index < 11; index++) {
    const sent = await request.post(`${origin}/api/feedback`, {
      headers: STORE,
      data: {
        name: `Reader ${index}`,
        email: `reader-${stamp}-${Math.floor(index / 5)}@example.mn`,
        feedback: `Older message ${index} ${stamp}`,
      },
    });
    expect(sent.ok(), await sent.text()).toBe(true);
  }
  const email = randomEmail('listener');
  const text = `Please add more throat singing playlists.\nAnd lyrics in Mongolian. ${stamp}`;
  await page.goto('/contact');
  await page.getByLabel('Name', { exact: true }).fill('Bat');
  await page.getByLabel('Email', { exact: true }).fill(email);
  await page.getByLabel('Feedback', { exact: true }).fill(text);
  await page.getByRole('button', { name: 'Send feedback' }).click();
  await expect(
    page.getByRole('status').filter({ hasText: 'Feedback submitted successfully!' }),
  ).toBeVisible();

  const support = await consolePage(browser, origin, await createOperator(request, 'support'));
  await expect(navLinks(support)).toHaveText(['Support', 'Feedback']);
  await support.getByRole('link', { name: 'Feedback' }).click();
  const list = support.getByRole('table', { name: 'Feedback' });
  await expect(list.getByRole('row').nth(1)).toContainText(email);
  await expect(list.getByRole('row')).toHaveCount(11); // the header and ten messages
  await list.getByRole('link', { name: 'Read the message from Bat' }).click();
  await expect(support.getByTestId('feedback-text')).toHaveText(text);
  expect(await audit(support, 'feedback message'), 'serious accessibility findings').toEqual([]);
  await expect(support.getByRole('link', { name: email })).toHaveAttribute('href', `mailto:${email}`);
  await support.getByRole('link', { name: 'Back to feedback' }).click();

  // The oldest of them is on the next page.
  await expect(list.getByText(`Older message 0 ${stamp}`)).toHaveCount(0);
  await support.getByRole('button', { name: 'Older' }).click();
  await expect(support.getByText('Page 2')).toBeVisible();
  await expect(list.getByText(`Older message 0 ${stamp}`)).toBeVisible();
  await support.getByRole('button', { name: 'Newest' }).click();
  await expect(list.getByRole('row').nth(1)).toContainText(email);

  // Reading changes nothing (no audit entry); the role is checked on the page and the server.
  const content = await consolePage(browser, origin, await createOperator(request, 'content'));
  await content.goto('/admin/feedback');
  await expect(content.getByRole('heading', { name: 'Not available' })).toBeVisible();
  expect((await content.request.get('/api/admin/feedback')).status()).toBe(403);
  expect((await support.request.get('/api/admin/feedback?limit=1000')).status()).toBe(400);
  expectNoMissingTranslations(support);
});

test('(f) the audit log names actions in words and who or what they touched, ids beside', async ({
  browser,
  request,
  baseURL,
}) => {
  test.setTimeout(120_000);
  const origin = baseURL ?? baseUrl();
  const stamp = Date.now().toString(36);
  const adminOperator = await createOperator(request, 'admin');
  const admin = await consolePage(browser, origin, adminOperator);

  // A voucher batch and a new operator by the admin; a listener signed out by support.
  await admin.getByRole('link', { name: 'Vouchers' }).click();
  await admin.getByLabel('Plan', { exact: true }).selectOption('PREMIUM_1M');
  await admin.getByLabel('Codes', { exact: true }).fill('1');
  await admin.getByLabel('Note (optional)').fill(`Audit batch ${stamp}`);
  await admin.getByRole('button', { name: 'Create batch' }).click();
  await expect(admin.getByText('1 codes created.')).toBeVisible();
  const newcomer = randomEmail('audited');
  const added = await admin.request.post('/api/admin/operators', {
    headers: CONSOLE,
    data: { email: newcomer, role: 'content' },
  });
  expect(added.status()).toBe(201);
  const listener = await signInByApi(request);
  const support = await consolePage(browser, origin, await createOperator(request, 'support'));
  const ended = await support.request.post(`/api/admin/users/${listener.sub}/sessions/end`, {
    headers: CONSOLE,
    data: {},
  });
  expect(ended.ok()).toBe(true);

  await admin.getByRole('link', { name: 'Audit log' }).click();
  const log = admin.getByRole('table', { name: 'Audit log' });
  const batch = log.getByRole('row').filter({ hasText: 'Made a voucher batch' }).filter({ hasText: stamp });
  await expect(batch).toContainText(`Premium · Audit batch ${stamp}`);
  await expect(batch).toContainText('Voucher batch');
  await expect(batch).toContainText(adminOperator.email);
  await expect(batch).toContainText('voucher.batch.create');
  await expect(batch.locator('code').filter({ hasText: /^[0-9a-f-]{36}$/ })).toHaveCount(2); // operator, batch

  const operatorRow = log
    .getByRole('row')
    .filter({ hasText: 'Added an operator' })
    .filter({ hasText: newcomer });
  await expect(operatorRow).toHaveCount(1);
  const signedOut = log
    .getByRole('row')
    .filter({ hasText: 'Signed a listener out everywhere' })
    .filter({ hasText: listener.msisdn });
  await expect(signedOut).toHaveCount(1);
  await expect(signedOut).toContainText('Listener');
  await expect(signedOut).toContainText(listener.sub);
  expect(await audit(admin, 'audit log'), 'serious accessibility findings').toEqual([]);

  // In Mongolian too.
  await admin.getByRole('button', { name: 'Монгол' }).click();
  const mnLog = admin.getByRole('table', { name: 'Үйлдлийн бүртгэл' });
  await expect(
    mnLog.getByRole('row').filter({ hasText: 'Ваучерын багц үүсгэсэн' }).filter({ hasText: stamp }),
  ).toHaveCount(1);
  await expect(
    mnLog
      .getByRole('row')
      .filter({ hasText: 'Сонсогчийг бүх төхөөрөмжөөс гаргасан' })
      .filter({ hasText: listener.msisdn }),
  ).toHaveCount(1);
  await admin.getByRole('button', { name: 'English' }).click();
  expectNoMissingTranslations(admin);
});
