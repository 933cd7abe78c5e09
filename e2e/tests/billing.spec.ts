import type { APIRequestContext, Locator, Page } from '@playwright/test';
import type { PaymentEntry } from '@tunes/shared/billing';
import { baseUrl, expect, type SignedInUser, signInByApi, writeAuthCookie } from '../fixtures';
import { testOnOwnServer } from '../own-server';
import { audit, text } from './a11y-helpers';
import { at, billingOf, fillCard, PAID_CARD } from './clock-helpers';

/**
 * The billing lifecycle in the browser (product.md §12): the saved card at checkout, renewals
 * walked with the development clock, a failed renewal paid now, plan changes, history and
 * receipts. The clock moves months ahead, so these tests run on a server of their own (its own
 * database and clock), one after another.
 */
const test = testOnOwnServer;

const DAY_SECONDS = 86_400;
const FAILS_LATER_CARD = '4000 0000 0000 0341';

const auth = (user: SignedInUser) => ({ StoreId: 'MNCO', Authorization: `Bearer ${user.access_token}` });

/** The listener's payment history, newest first (as /profile lists it). */
async function paymentsOf(request: APIRequestContext, user: SignedInUser): Promise<PaymentEntry[]> {
  const response = await request.get(`${baseUrl()}/api/users/me/payments`, { headers: auth(user) });
  expect(response.ok()).toBe(true);
  return (await response.json()) as PaymentEntry[];
}

async function payWithCard(page: Page, card: string) {
  await expect(page).toHaveURL(/\/sandbox-gateway\/payment\?token=[\w-]+&os=PC$/);
  await fillCard(page, card);
  await page.getByRole('button', { name: /^Pay / }).click();
}

/** Buys a plan on /premium with the card kept for renewals (the default), in English. */
async function buyWithSavedCard(page: Page, plan: string, card = PAID_CARD) {
  await page.goto('/premium');
  const save = page.getByRole('checkbox', { name: 'Save my card for renewals' });
  await expect(save).toBeChecked();
  await expect(save).toHaveAccessibleDescription(/We'll charge this card each month until you cancel/);
  await page
    .getByRole('article', { name: plan, exact: true })
    .getByRole('button', { name: 'Get package' })
    .click();
  await payWithCard(page, card);
  await expect(page).toHaveURL(/\/success\?invoiceId=/);
}

/** The value a description list gives a term, e.g. "Amount paid" on the receipt. */
const definitionOf = (scope: Locator, term: string) =>
  scope
    .locator('div')
    .filter({ has: scope.page().getByRole('term').getByText(term, { exact: true }) })
    .getByRole('definition');

const billingRegion = (page: Page, name = 'Billing') => page.getByRole('region', { name });
const historyItems = (page: Page, region = 'Billing', list = 'Payment history') =>
  billingRegion(page, region).getByRole('list', { name: list }).getByRole('listitem');

/** Nothing on the page is wider than the window (no sideways scroll). */
async function expectNoSidewaysScroll(page: Page) {
  const overflow = await page.evaluate(
    () => document.documentElement.scrollWidth - document.documentElement.clientWidth,
  );
  expect(overflow, 'the page scrolls sideways').toBeLessThanOrEqual(0);
}

// One clock for the file: its tests run one after another, never beside each other.
test.describe.configure({ mode: 'default' });

test('Premium with a saved card renews 12 times over 13 months: 13 paid payments on /profile, each with a receipt', async ({
  page,
  signIn,
}) => {
  test.setTimeout(180_000);
  const user = await signIn();
  await buyWithSavedCard(page, 'Premium');

  await page.goto('/profile');
  const billing = billingRegion(page);
  await expect(billing.getByText('Visa •••• 4242')).toBeVisible();
  await expect(billing.getByRole('definition').filter({ hasText: '6,900 ₮' })).toBeVisible();
  const first = await billingOf(page.request, user);
  const firstCharge = new Intl.DateTimeFormat('en', { dateStyle: 'long' }).format(
    new Date(first.renewal?.nextChargeAt ?? ''),
  );
  await expect(billing.getByRole('definition').filter({ hasText: firstCharge })).toBeVisible();
  await expect(billing.getByText(/We'll charge your saved card on that date/)).toBeVisible();

  // Twelve periods: the reminder 3 days before each end, then the charge on the end date.
  for (let month = 1; month <= 12; month++) {
    const { renewal } = await billingOf(page.request, user);
    const end = new Date(renewal?.nextChargeAt ?? '').getTime();
    await at(page.request, end - 3 * DAY_SECONDS * 1000 + 60_000);
    await at(page.request, end + 60_000);
    const after = await billingOf(page.request, user);
    expect(new Date(after.renewal?.endDate ?? '').getTime(), `month ${month} renewed`).toBeGreaterThan(end);
  }

  await page.reload();
  const items = historyItems(page);
  await expect(items).toHaveCount(13);
  await expect(items.filter({ hasText: 'Paid' })).toHaveCount(13);
  await expect(items.filter({ hasText: 'Renewal' })).toHaveCount(12);
  await expect(items.filter({ hasText: 'Purchase' })).toHaveCount(1);
  await expect(billing.getByRole('link', { name: /^Receipt/ })).toHaveCount(13);
  // Exactly 12 renewal charges went through: the history holds no duplicate.
  const renewals = (await paymentsOf(page.request, user)).filter((payment) => payment.kind === 'renewal');
  expect(new Set(renewals.map((payment) => payment.invoiceId)).size).toBe(12);

  const newest = renewals[0] as PaymentEntry;
  await items
    .first()
    .getByRole('link', { name: /^Receipt/ })
    .click();
  await expect(page).toHaveURL(new RegExp(`/receipts/${encodeURIComponent(newest.invoiceId)}$`));
  await expect(page.getByRole('heading', { level: 1, name: 'Receipt' })).toBeVisible();
  const receipt = page.getByRole('article', { name: 'Receipt' });
  await expect(receipt.getByText('Tunes LLC')).toBeVisible();
  await expect(receipt.getByRole('region', { name: 'Buyer' })).toContainText(`+976 ${user.msisdn.slice(3)}`);
  for (const [label, value] of [
    ['Plan', 'Premium'],
    ['Type', 'Renewal'],
    ['Amount paid', '6,900 ₮'],
    ['VAT included (10%)', '627 ₮'],
    ['Paid with', 'Visa •••• 4242'],
    ['Invoice number', newest.invoiceId],
  ] as const) {
    await expect(definitionOf(receipt, label)).toHaveText(value);
  }
  await expect(definitionOf(receipt, 'Period')).toContainText('–');
  await expect(page.getByRole('button', { name: 'Print' })).toBeVisible();
  // On paper: the receipt alone, without the site's header, footer and buttons.
  await page.emulateMedia({ media: 'print' });
  await expect(page.getByRole('banner')).toBeHidden();
  await expect(page.getByRole('contentinfo')).toBeHidden();
  await expect(page.getByRole('button', { name: 'Print' })).toBeHidden();
  await expect(receipt).toBeVisible();
  await page.emulateMedia({ media: 'screen' });

  for (const width of [360, 1440]) {
    await page.setViewportSize({ width, height: 900 });
    await expectNoSidewaysScroll(page);
    expect(await audit(page, `receipt ${width}px`)).toEqual([]);
    await page.goto('/profile');
    await expect(historyItems(page)).toHaveCount(13);
    await expectNoSidewaysScroll(page);
    expect(await audit(page, `profile billing ${width}px`)).toEqual([]);
    await page.goBack();
  }
});

test('in Mongolian: a card declined at renewal shows the failed-renewal message, and Pay now pays it through the gateway', async ({
  page,
  signIn,
}) => {
  const mn = (key: string) => text('mn', key);
  const user = await signIn();
  await page.goto('/premium');
  await page.getByRole('button', { name: 'Монгол' }).click();
  const save = page.getByRole('checkbox', { name: mn('premium:save-card.label') });
  await expect(save).toBeChecked();
  await expect(page.getByText(mn('premium:save-card.on'))).toBeVisible();
  await page
    .getByRole('article', { name: 'Премиум', exact: true })
    .getByRole('button', { name: mn('premium:plan.get') })
    .click();
  await payWithCard(page, FAILS_LATER_CARD);
  await expect(page).toHaveURL(/\/success\?invoiceId=/);

  // The end date comes; the saved card is declined; access continues while it is tried again.
  const { renewal } = await billingOf(page.request, user);
  await at(page.request, new Date(renewal?.endDate ?? '').getTime() + 60_000);
  const failed = (await billingOf(page.request, user)).renewal?.failedRenewal;
  expect(failed?.attempts).toBe(1);

  await page.goto('/profile');
  const billing = billingRegion(page, mn('billing:title'));
  const alert = billing.getByRole('alert');
  await expect(alert.getByRole('heading', { name: mn('billing:failed.title') })).toBeVisible();
  await expect(alert).toContainText('Дараагийн оролдлого:');
  await expect(alert).toContainText('6,900 ₮');
  await expect(historyItems(page, mn('billing:title'), mn('billing:history.title')).first()).toContainText(
    mn('billing:history.status.created'),
  );

  await alert.getByRole('button', { name: mn('billing:failed.pay-now') }).click();
  await payWithCard(page, PAID_CARD);
  await expect(page).toHaveURL(/\/success\?invoiceId=/);

  await page.goto('/profile');
  await expect(billing.getByRole('alert')).toHaveCount(0);
  await expect(billing.getByText(mn('billing:renewal.next-charge'))).toBeVisible();
  const items = historyItems(page, mn('billing:title'), mn('billing:history.title'));
  await expect(items).toHaveCount(2);
  await expect(items.filter({ hasText: mn('billing:history.status.paid') })).toHaveCount(2);
  await expect(items.first()).toContainText(mn('billing:history.kind.renewal'));
  const paid = await paymentsOf(page.request, user);
  expect(paid.map((payment) => [payment.kind, payment.status])).toEqual([
    ['renewal', 'paid'],
    ['purchase', 'paid'],
  ]);

  for (const width of [360, 1440]) {
    await page.setViewportSize({ width, height: 900 });
    await expectNoSidewaysScroll(page);
    expect(await audit(page, `profile billing mn ${width}px`)).toEqual([]);
  }
});

test('an upgrade from Duo to Family mid-period charges the prorated difference once, to the saved card', async ({
  page,
  signIn,
}) => {
  const user = await signIn();
  await buyWithSavedCard(page, 'Premium Duo');
  const before = await billingOf(page.request, user);
  const end = new Date(before.renewal?.endDate ?? '').getTime();
  const start = new Date((await paymentsOf(page.request, user))[0]?.paidAt ?? '').getTime();
  // Halfway through the period.
  await at(page.request, start + (end - start) / 2);

  await page.goto('/profile');
  const billing = billingRegion(page);
  await billing.getByRole('button', { name: 'Change plan' }).click();
  const choices = billing.getByRole('group', { name: 'Choose your new plan' });
  await expect(choices.getByRole('radio')).toHaveCount(3);
  await expect(choices.getByRole('radio', { name: /Premium Duo/ })).toBeDisabled();
  await choices.getByRole('radio', { name: /Premium Family/ }).check();
  await expect(billing.getByText(/Premium Family starts now\. You pay only the difference/)).toBeVisible();
  await billing.getByRole('button', { name: 'Confirm change' }).click();

  const done = billing.getByRole('status').filter({ hasText: 'Your plan is now Premium Family' });
  await expect(done).toBeVisible();
  const changes = (await paymentsOf(page.request, user)).filter((payment) => payment.kind === 'change');
  expect(changes).toHaveLength(1);
  const change = changes[0] as PaymentEntry;
  expect(change.status).toBe('paid');
  // (17,900 − 9,900) × the half of the period left, in whole tögrög.
  expect(Math.abs(change.amount - 4000)).toBeLessThanOrEqual(5);
  await expect(done).toHaveText(
    `Your plan is now Premium Family. We charged ${change.amount.toLocaleString('en')} ₮.`,
  );

  // The profile shows the new plan; the history shows the charge once, with its receipt.
  await expect(page.getByRole('region', { name: 'Subscription' }).getByText('Premium Family')).toBeVisible();
  await page.reload();
  const items = historyItems(page);
  await expect(items).toHaveCount(2);
  await expect(items.filter({ hasText: 'Plan change' })).toHaveCount(1);
  await expect(items.first()).toContainText(`${change.amount.toLocaleString('en')} ₮`);
  await expect(billing.getByRole('definition').filter({ hasText: '17,900 ₮' })).toBeVisible();
});

test('a downgrade Family → Duo says when it starts and how many members lose their seat; members see no billing controls', async ({
  page,
  signIn,
  browser,
}) => {
  const owner = await signIn();
  await buyWithSavedCard(page, 'Premium Family');
  const { renewal } = await billingOf(page.request, owner);
  const subscriptionId = renewal?.subscriptionId ?? '';

  // Two members join through invitations, by the API.
  const members: SignedInUser[] = [];
  for (let n = 0; n < 2; n++) {
    const created = await page.request.post(
      `${baseUrl()}/api/subscription/${subscriptionId}/invitation-code`,
      {
        headers: auth(owner),
      },
    );
    expect(created.status()).toBe(201);
    const { Code } = (await created.json()) as { Code: string };
    const member = await signInByApi(page.request);
    const accepted = await page.request.post(`${baseUrl()}/api/subscription/invitations/${Code}`, {
      headers: auth(member),
    });
    expect(accepted.ok(), await accepted.text()).toBe(true);
    members.push(member);
  }

  await page.goto('/profile');
  const billing = billingRegion(page);
  await billing.getByRole('button', { name: 'Change plan' }).click();
  await billing.getByRole('radio', { name: /Premium Duo/ }).check();
  const endDate = new Intl.DateTimeFormat('en', { dateStyle: 'long' }).format(
    new Date(renewal?.endDate ?? ''),
  );
  await expect(billing.getByText(`Premium Duo starts on ${endDate}, when your plan renews`)).toBeVisible();
  await expect(billing.getByText(/has room for 2 people including you/)).toBeVisible();
  await billing.getByRole('button', { name: 'Confirm change' }).click();

  await expect(
    billing.getByRole('status').filter({ hasText: `Premium Duo starts on ${endDate}.` }),
  ).toBeVisible();
  await expect(
    billing.getByText(
      `Your plan changes to Premium Duo on ${endDate}. Until then you keep your current plan.`,
    ),
  ).toBeVisible();
  await expect(billing.getByText('1 member of your plan loses their seat on that date.')).toBeVisible();
  await expect(billing.getByRole('definition').filter({ hasText: '9,900 ₮' })).toBeVisible();
  // Nothing was charged for a downgrade.
  expect((await paymentsOf(page.request, owner)).map((payment) => payment.kind)).toEqual(['purchase']);

  // Keeping the current plan withdraws it.
  await billing.getByRole('button', { name: 'Keep my current plan' }).click();
  await expect(billing.getByText(/Your plan changes to Premium Duo/)).toHaveCount(0);
  await expect(billing.getByRole('definition').filter({ hasText: '17,900 ₮' })).toBeVisible();

  // A member of the plan sees it in the Subscription block and no billing controls.
  const context = await browser.newContext({ baseURL: baseUrl() });
  try {
    const memberPage = await context.newPage();
    await writeAuthCookie(memberPage, members[0] as SignedInUser);
    await memberPage.goto('/profile');
    await expect(memberPage.getByText('You share this plan as a member.')).toBeVisible();
    await expect(memberPage.getByRole('button', { name: 'Change plan' })).toHaveCount(0);
    await expect(memberPage.getByRole('button', { name: 'Remove card' })).toHaveCount(0);
    await expect(memberPage.getByRole('region', { name: 'Billing' })).toHaveCount(0);
  } finally {
    await context.close();
  }
});

test('Remove card asks in a dialog first (keyboard: Escape keeps the card), then renewals go by payment link', async ({
  page,
  signIn,
}) => {
  await signIn();
  await buyWithSavedCard(page, 'Premium');
  await page.goto('/profile');
  const billing = billingRegion(page);
  const remove = billing.getByRole('button', { name: 'Remove card' });

  await remove.focus();
  await page.keyboard.press('Enter');
  const dialog = page.getByRole('alertdialog', { name: 'Remove this card?' });
  await expect(dialog).toBeVisible();
  await expect(dialog).toHaveAccessibleDescription(/We won't charge this card again/);
  await expect(dialog.getByRole('button', { name: 'Keep card' })).toBeFocused();
  await page.keyboard.press('Escape');
  await expect(dialog).toHaveCount(0);
  await expect(remove).toBeFocused();
  await expect(billing.getByText('Visa •••• 4242')).toBeVisible();

  await remove.click();
  await dialog.getByRole('button', { name: 'Remove card' }).click();
  await expect(dialog).toHaveCount(0);
  await expect(
    billing.getByText('No card saved. Renewals come as a payment link by SMS or e-mail.'),
  ).toBeVisible();
  await expect(billing.getByText(/No card is saved, so we'll send you a payment link/)).toBeVisible();
  await expect(billing.getByRole('heading', { name: 'Card on file' })).toBeFocused();
});
