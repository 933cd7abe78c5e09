import type { APIRequestContext, Browser, Page } from '@playwright/test';
import { generate } from 'otplib';
import { baseUrl, expect, randomEmail, type SignedInUser, signInByApi } from '../fixtures';
import { testOnOwnServer as test } from '../own-server';
import { audit } from './a11y-helpers';

/**
 * The operator console (issue 14, DESIGN §9) in Chromium, on a server of its own: publishing
 * content and counting purchases must not meet other tests' landing page or dashboard. The tests
 * run in order: the last one reads the audit entries of the others.
 */
test.describe.configure({ mode: 'serial' });

type Role = 'admin' | 'support' | 'content';
interface ReadyOperator {
  email: string;
  password: string;
  totpSecret: string;
}

/** The console's CSRF header (docs/console-api.md §1). */
const CONSOLE = { 'X-Tunes-Console': '1' };
const PAID_CARD = '4242 4242 4242 4242';

/** A set-up operator with a known password and TOTP secret (`POST /dev/admin/operators`). */
async function createOperator(request: APIRequestContext, role: Role): Promise<ReadyOperator> {
  const email = randomEmail(role);
  const response = await request.post(`${baseUrl()}/dev/admin/operators`, { data: { email, role } });
  expect(response.status(), await response.text()).toBe(201);
  const { password, totpSecret } = (await response.json()) as { password: string; totpSecret: string };
  return { email, password, totpSecret };
}

/** The authenticator's code now, from the same TOTP library as the server. */
const codeOf = (operator: ReadyOperator) => generate({ secret: operator.totpSecret });

async function fillSignIn(page: Page, operator: ReadyOperator, code: string) {
  await page.getByLabel('E-mail').fill(operator.email);
  await page.getByLabel('Password').fill(operator.password);
  await page.getByLabel('Authenticator code').fill(code);
  await page.getByRole('button', { name: 'Sign in' }).click();
}

/** Signs an operator in on the console's page, in a browser context of its own. */
async function consolePage(browser: Browser, baseURL: string, operator: ReadyOperator): Promise<Page> {
  const context = await browser.newContext({ baseURL });
  const page = await context.newPage();
  await page.goto('/admin/sign-in');
  await fillSignIn(page, operator, await codeOf(operator));
  await expect(page.getByRole('button', { name: 'Sign out' })).toBeVisible();
  return page;
}

const navLinks = (page: Page) => page.getByRole('navigation', { name: 'Console' }).getByRole('link');

test('sign-in needs the authenticator code; a support operator sees and reaches only support', async ({
  page,
  request,
}) => {
  const support = await createOperator(request, 'support');
  const right = await codeOf(support);
  const wrong = String((Number(right) + 1) % 1_000_000).padStart(6, '0');

  const withoutCode = await request.post(`${baseUrl()}/api/admin/session`, {
    headers: CONSOLE,
    data: { email: support.email, password: support.password },
  });
  expect(withoutCode.status()).toBe(400);

  // Every /admin path is the console's own page (never the listener's 404 or a prerendered page).
  for (const path of ['/admin', '/admin/no-such-section/deeper']) {
    const answer = await request.get(`${baseUrl()}${path}`);
    expect(answer.status()).toBe(200);
    expect(await answer.text()).toContain('<title>Tunes console</title>');
  }
  await page.goto('/admin');
  await expect(page).toHaveURL(/\/admin\/sign-in/);
  const findings = await audit(page, 'sign-in');
  await fillSignIn(page, support, wrong);
  await expect(page.getByRole('alert')).toHaveText('The e-mail, password or code is not right.');
  await page.getByLabel('Authenticator code').fill(right);
  await page.getByRole('button', { name: 'Sign in' }).click();

  await expect(page.getByRole('heading', { level: 1, name: 'Support' })).toBeVisible();
  await expect(navLinks(page)).toHaveText(['Support', 'Feedback']);
  findings.push(...(await audit(page, 'support')));
  expect(findings, 'serious accessibility findings').toEqual([]);
  for (const path of ['/admin/vouchers', '/admin/operators', '/admin/audit', '/admin/content']) {
    await page.goto(path);
    await expect(page.getByRole('heading', { name: 'Not available' })).toBeVisible();
  }
  // The server checks the role too, and refuses a listener's token outright.
  expect((await page.request.get('/api/admin/vouchers/batches')).status()).toBe(403);
  expect((await page.request.get('/api/admin/operators')).status()).toBe(403);
  const { access_token } = await signInByApi(request);
  const listener = await request.get(`${baseUrl()}/api/admin/me`, {
    headers: { Authorization: `Bearer ${access_token}` },
  });
  expect(listener.status()).toBe(403);

  // An ended session sends the operator back to sign-in with a message.
  await page.goto('/admin/support');
  await page.context().clearCookies({ name: 'tunes_op' });
  await page.getByLabel('Phone, e-mail or user id').fill('99112233');
  await page.getByRole('button', { name: 'Search' }).click();
  await expect(page).toHaveURL(/\/admin\/sign-in\?expired=1/);
  await expect(
    page.getByText('Your session ended after a time without activity. Sign in again.'),
  ).toBeVisible();
});

test('a content operator changes the banner and a reel; a new visitor sees them on /', async ({
  page,
  request,
  browser,
  baseURL,
}) => {
  const content = await createOperator(request, 'content');
  const stamp = Date.now().toString(36);
  const title = `Summer hits ${stamp}`;
  const reelText = `Live session ${stamp}`;

  await page.goto('/admin/sign-in');
  await fillSignIn(page, content, await codeOf(content));
  await expect(page.getByRole('heading', { level: 1, name: 'Content' })).toBeVisible();
  await expect(navLinks(page)).toHaveText(['Content']);

  await page.getByRole('group', { name: 'Banner title' }).getByLabel('English').fill(title);
  await page
    .getByRole('group', { name: 'Reel 2' })
    .getByRole('group', { name: 'Description' })
    .getByLabel('English')
    .fill(reelText);
  await page.getByRole('button', { name: 'Save draft' }).click();
  await expect(page.getByText('Draft saved.')).toBeVisible();
  await expect(page.getByText('The draft has changes listeners do not see yet.')).toBeVisible();

  // The preview is the listener's landing page with the draft.
  await page.getByRole('button', { name: 'Preview' }).click();
  const preview = page.getByTestId('landing-preview');
  await expect(preview.getByRole('heading', { level: 1, name: title })).toBeVisible();
  await expect(preview.getByText(reelText, { exact: true })).toBeVisible();
  expect(await audit(page, 'content'), 'serious accessibility findings').toEqual([]);

  // Nothing is public before publish.
  const before = await request.get(`${baseUrl()}/api/landing-page`);
  expect(JSON.stringify(await before.json())).not.toContain(stamp);

  await page.getByRole('button', { name: 'Publish' }).click();
  await page.getByRole('alertdialog').getByRole('button', { name: 'Publish' }).click();
  await expect(page.getByText(/^Published \(revision \d+\)\.$/)).toBeVisible();
  await expect(page.getByText('Listeners see this draft.')).toBeVisible();

  const visitor = await browser.newContext({ baseURL });
  const home = await visitor.newPage();
  await home.goto('/');
  await expect(home.getByRole('heading', { level: 1, name: title })).toBeVisible();
  await expect(home.getByText(reelText, { exact: true })).toBeVisible();
  await visitor.close();
});

interface Dashboard {
  activeByPlan: { count: number }[];
  revenue: { method: string; amount: number }[];
}

async function dashboardOf(page: Page): Promise<{ active: number; card: number }> {
  const response = await page.request.get('/api/admin/dashboard?days=30');
  expect(response.ok()).toBe(true);
  const body = (await response.json()) as Dashboard;
  return {
    active: body.activeByPlan.reduce((sum, row) => sum + row.count, 0),
    card: body.revenue.filter((row) => row.method === 'card').reduce((sum, row) => sum + row.amount, 0),
  };
}

/** Buys Premium on /premium with a card in the sandbox gateway. */
async function buyPremium(page: Page) {
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
}

test('a support operator finds a listener by phone and extends the period; the profile, audit log and dashboard show it', async ({
  page,
  request,
  browser,
  baseURL,
  signIn,
}) => {
  // Two operators' consoles, a listener's purchase, the extension and three pages to check it:
  // 41–52 s with two CI runs side by side.
  test.setTimeout(120_000);
  const origin = baseURL ?? baseUrl();
  const admin = await consolePage(browser, origin, await createOperator(request, 'admin'));
  await expect(navLinks(admin)).toHaveText([
    'Dashboard',
    'Content',
    'Support',
    'Feedback',
    'Plans',
    'Offers',
    'Vouchers',
    'Operators',
    'Audit log',
  ]);
  const before = await dashboardOf(admin);

  const listener: SignedInUser = await signIn();
  await buyPremium(page);

  const support = await consolePage(browser, origin, await createOperator(request, 'support'));
  await support.getByLabel('Phone, e-mail or user id').fill(listener.msisdn.slice(3));
  await support.getByRole('button', { name: 'Search' }).click();
  await support.getByRole('table', { name: 'Listeners found' }).getByRole('link').first().click();
  // Usable on a phone: the page never scrolls sideways; wide tables scroll inside themselves.
  await support.setViewportSize({ width: 360, height: 800 });
  await expect(support.getByRole('heading', { level: 2, name: 'Payments' })).toBeVisible();
  expect(await support.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)).toBe(true);
  await support.setViewportSize({ width: 1280, height: 800 });
  const subscriptions = support.getByRole('table', { name: 'Subscriptions' });
  const row = subscriptions.getByRole('row').filter({ hasText: 'Active' }).first();
  await row.getByRole('button', { name: 'Extend' }).click();
  const dialog = support.getByRole('alertdialog');
  await dialog.getByLabel('Days to add (1–366)').fill('30');
  await dialog.getByRole('button', { name: 'Extend' }).click();
  await expect(support.getByText(/^Extended to /)).toBeVisible();

  const detail = await support.request.get(`/api/admin/users/${encodeURIComponent(listener.sub)}`);
  const { subscriptions: after } = (await detail.json()) as {
    subscriptions: { status: string; endDate: string }[];
  };
  const active = after.find((subscription) => subscription.status === 'active');
  expect(active).toBeDefined();
  const endDate = new Intl.DateTimeFormat('en', { dateStyle: 'long' }).format(
    new Date(active?.endDate ?? ''),
  );

  await page.goto('/profile');
  await expect(page.getByText(endDate, { exact: true }).first()).toBeVisible();

  // The audit log lists the extension and the content change of the test before.
  await admin.getByRole('link', { name: 'Audit log' }).click();
  const auditLog = admin.getByRole('table', { name: 'Audit log' });
  await expect(
    auditLog.getByRole('row').filter({ hasText: 'user.extend' }).filter({ hasText: listener.sub }),
  ).toHaveCount(1);
  await expect(auditLog.getByRole('row').filter({ hasText: 'content.landing.update' }).first()).toBeVisible();
  await expect(auditLog.getByRole('row').filter({ hasText: 'content.publish' }).first()).toBeVisible();

  // The dashboard counts the purchase.
  const now = await dashboardOf(admin);
  expect(now.active).toBeGreaterThanOrEqual(before.active + 1);
  expect(now.card).toBeGreaterThan(before.card);
  await admin.getByRole('link', { name: 'Dashboard' }).click();
  await expect(admin.getByTestId('stat-active')).toHaveText(String(now.active));
  expect(await audit(admin, 'dashboard'), 'serious accessibility findings').toEqual([]);
  await expect(admin.getByTestId('stat-revenue-card')).toContainText(now.card.toLocaleString('en-US'));
  await expect(admin.locator('.admin-chart canvas')).toHaveCount(3);
});

test('an admin adds an operator, who sets up with the one-time link; an admin makes a voucher batch', async ({
  browser,
  request,
  baseURL,
}) => {
  const origin = baseURL ?? baseUrl();
  const admin = await consolePage(browser, origin, await createOperator(request, 'admin'));
  const email = randomEmail('new-content');
  await admin.getByRole('link', { name: 'Operators' }).click();
  await admin.getByLabel('E-mail', { exact: true }).fill(email);
  await admin.getByLabel('Role', { exact: true }).selectOption('content');
  await admin.getByRole('button', { name: 'Add', exact: true }).click();
  const link = await admin.locator('.admin-link').textContent();
  expect(link).toMatch(/\/admin\/setup\?token=/);
  await expect(admin.getByRole('row').filter({ hasText: email })).toContainText('Not set up');

  const newcomer = await (await browser.newContext({ baseURL: origin })).newPage();
  await newcomer.goto(link ?? '');
  await expect(newcomer.getByText(`You are setting up ${email} (Content).`)).toBeVisible();
  await expect(newcomer.getByRole('img', { name: 'QR code of your authenticator secret' })).toBeVisible();
  const secret = (await newcomer.getByTestId('totp-secret').textContent()) ?? '';
  await newcomer.getByLabel('Password', { exact: true }).fill('a-long-operator-password');
  await newcomer.getByLabel('Password again').fill('a-long-operator-password');
  await newcomer.getByLabel('Authenticator code').fill(await generate({ secret }));
  await newcomer.getByRole('button', { name: 'Finish set-up' }).click();
  await expect(newcomer.getByRole('heading', { level: 1, name: 'Content' })).toBeVisible();

  await admin.getByRole('link', { name: 'Vouchers' }).click();
  await admin.getByLabel('Codes').fill('3');
  await admin.getByLabel('Note (optional)').fill('Partner batch e2e');
  await admin.getByLabel('Expires').fill('2031-03-15');
  await admin.getByRole('button', { name: 'Create batch' }).click();
  await expect(admin.getByText('3 codes created.')).toBeVisible();
  // The codes last to the end of the chosen day in Ulaanbaatar (UTC+8), not in UTC.
  const { batches } = (await (await admin.request.get('/api/admin/vouchers/batches')).json()) as {
    batches: { note: string | null; expiresAt: string }[];
  };
  expect(batches.find((made) => made.note === 'Partner batch e2e')?.expiresAt).toBe(
    '2031-03-15T15:59:59.999Z',
  );
  const batch = admin
    .getByRole('table', { name: 'Batches' })
    .getByRole('row')
    .filter({ hasText: 'Partner batch e2e' });
  await expect(batch.getByRole('link', { name: 'CSV' })).toHaveAttribute('href', /codes\.csv$/);
  await batch.getByRole('button', { name: 'Revoke unused' }).click();
  await admin.getByRole('alertdialog').getByRole('button', { name: 'Revoke unused' }).click();
  await expect(admin.getByText('3 codes revoked.')).toBeVisible();
});
