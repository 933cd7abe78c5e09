import type { Page } from '@playwright/test';
import { baseUrl, bearer, expect, readOutbox, serverNow } from '../fixtures';
import { testOnOwnServer } from '../own-server';
import { audit, text } from './a11y-helpers';
import { at, billingOf, DAY_MS, fillCard, paymentsOf } from './clock-helpers';
import { consolePage, createOperator } from './console-helpers';

/**
 * First-time free trials (issue 38), walked with the development clock on a server of its own:
 * the demo catalog's Premium has 30 free days. A trial by card (the gateway's save-card page,
 * nothing charged) converts to a paid renewal when it ends; one by QPay link cancelled in the
 * trial is never charged and ends; that account is then refused a second trial, in its words.
 */
const test = testOnOwnServer;
test.describe.configure({ mode: 'default' });

const en = (key: string) => text('en', key);
const mn = (key: string) => text('mn', key);

/** Opens the trial's terms from the Premium card on /premium. */
async function openTrial(page: Page) {
  await page.goto('/premium');
  await page
    .getByRole('article', { name: 'Premium', exact: true })
    .getByRole('button', { name: 'Try free for 30 days' })
    .click();
  const dialog = page.getByRole('dialog', { name: 'Try Premium free for 30 days' });
  await expect(dialog).toBeVisible();
  return dialog;
}

test("the trial dialog's date is the server's, whatever this device's clock says", async ({
  page,
  request,
  signIn,
}) => {
  await signIn();
  // The device's clock a year off (set wrong, or a tablet never synced): the trial still ends
  // 30 days after the server's now, and the dialog says that day.
  const now = await serverNow(request);
  await page.clock.setFixedTime(new Date(now.getTime() + 365 * DAY_MS));
  const ends = new Intl.DateTimeFormat('en', { dateStyle: 'long' }).format(
    new Date(now.getTime() + 30 * DAY_MS),
  );
  const dialog = await openTrial(page);
  await expect(dialog).toContainText(`Premium is free until ${ends}. Nothing is charged today.`);
});

test('a trial by card: terms spelled out, the card saved with nothing charged, then the first renewal paid when it ends', async ({
  page,
  request,
  signIn,
}) => {
  test.setTimeout(150_000);
  const user = await signIn();
  const dialog = await openTrial(page);
  await expect(dialog.getByRole('radio', { name: en('premium:trial.method.card') })).toBeChecked();
  await expect(dialog).toContainText(/Premium is free until .+\. Nothing is charged today\./);
  await expect(dialog).toContainText(/From .+ it costs 6,900 ₮ a month, charged to the card you save now\./);
  await expect(dialog).toContainText(/Cancel any time in your profile before .+ and nothing is charged\./);
  expect(await audit(page, 'trial dialog')).toEqual([]);
  await dialog.getByRole('button', { name: 'Save card and start free trial' }).click();

  await expect(page).toHaveURL(/\/sandbox-gateway\/card\?token=/);
  await expect(page.getByText('Nothing is charged now.')).toBeVisible();
  await fillCard(page);
  await page.getByRole('button', { name: 'Save card' }).click();
  await expect(page).toHaveURL(/\/profile\?trial=started$/);
  const billing = page.getByRole('region', { name: en('billing:title') });
  await expect(
    billing.getByRole('status').filter({ hasText: en('billing:trial.return.started') }),
  ).toBeVisible();
  await expect(billing.getByRole('heading', { name: en('billing:trial.title') })).toBeVisible();
  await expect(billing.getByRole('definition').filter({ hasText: '6,900 ₮' }).first()).toBeVisible();
  await expect(billing).toContainText(/On .+ we charge 6,900 ₮ to your saved card/);
  expect(await paymentsOf(request, user)).toEqual([]);
  const trial = (await billingOf(request, user)).trial;
  expect(trial).toMatchObject({ amountAfter: 6900, method: 'card', cancelled: false });
  // The free days cannot be paused, and a dearer plan in them is free until the trial's end.
  await expect(billing.getByText(en('billing:pause.unavailable.trial'))).toBeVisible();
  await billing.getByRole('button', { name: en('billing:change.open') }).click();
  await billing.getByRole('radio', { name: /Premium Family/ }).check();
  await expect(billing).toContainText(
    /Premium Family starts now and stays free until .+; then .+ a month\. Nothing is charged now\./,
  );
  await billing.getByRole('button', { name: en('billing:change.cancel'), exact: true }).click();
  await page.getByRole('button', { name: 'Монгол' }).click();
  // The block's own name is Mongolian now.
  await expect(page.getByRole('heading', { name: mn('billing:trial.title') })).toBeVisible();
  await page.getByRole('button', { name: 'English' }).click();

  // Reminded before the first charge; at its end the card pays the full price.
  const ends = new Date(trial?.endsAt ?? '').getTime();
  await at(request, ends - 3 * DAY_MS + 60_000);
  const told = (await readOutbox(request, user.msisdn)).map((message) => message.text);
  expect(told.some((message) => /^Your free Premium trial ends on .+₮6,900/.test(message))).toBe(true);
  expect(await paymentsOf(request, user)).toEqual([]);
  await at(request, ends + 60_000);
  const payments = await paymentsOf(request, user);
  expect(payments.map(({ kind, status, amount }) => ({ kind, status, amount }))).toEqual([
    { kind: 'renewal', status: 'paid', amount: 6900 },
  ]);
  expect((await billingOf(request, user)).trial ?? null).toBeNull();
  await page.goto('/profile');
  await expect(billing.getByRole('heading', { name: en('billing:trial.title') })).toHaveCount(0);
});

test('a trial by QPay link cancelled in the trial is never charged and ends; a second trial is refused', async ({
  browser,
  baseURL,
  page,
  request,
  signIn,
}) => {
  test.setTimeout(150_000);
  const user = await signIn();
  const dialog = await openTrial(page);
  await dialog.getByRole('radio', { name: en('premium:trial.method.qpay') }).check();
  await expect(dialog).toContainText(/We send you a QPay payment link 3 days before/);
  await dialog.getByRole('button', { name: 'Start free trial' }).click();
  await expect(page).toHaveURL(/\/profile$/);
  const billing = page.getByRole('region', { name: en('billing:title') });
  await expect(billing.getByRole('heading', { name: en('billing:trial.title') })).toBeVisible();
  await expect(billing).toContainText(/we send you a QPay payment link for 6,900 ₮/);
  const trial = (await billingOf(request, user)).trial;
  expect(trial).toMatchObject({ method: 'qpay', cancelled: false });

  // Cancelled in the trial: Premium to its end, nothing charged.
  const status = page.getByRole('region', { name: 'Subscription' });
  await status.getByRole('button', { name: 'Cancel Premium' }).click();
  await page
    .getByRole('alertdialog', { name: 'Cancel Premium?' })
    .getByRole('button', { name: 'Cancel Premium' })
    .click();
  await expect(
    billing
      .getByRole('status')
      .filter({ hasText: /^Free trial cancelled: Premium ends on .+ and nothing is charged\.$/ }),
  ).toBeVisible();
  expect((await billingOf(request, user)).trial).toMatchObject({ cancelled: true });
  await page.getByRole('button', { name: 'Монгол' }).click();
  await expect(page.getByText(/^Үнэгүй туршилтыг цуцалсан/)).toBeVisible();
  await page.getByRole('button', { name: 'English' }).click();

  // Past its end: no invoice, no link, no charge, and no Premium.
  const ends = new Date(trial?.endsAt ?? '').getTime();
  await at(request, ends - 3 * DAY_MS + 60_000);
  await at(request, ends + 60_000);
  await at(request, ends + 6 * DAY_MS);
  expect(await paymentsOf(request, user)).toEqual([]);
  const told = (await readOutbox(request, user.msisdn)).map((message) => message.text);
  // Told the trial started; never asked to pay (the trial's link, a renewal's link or charge).
  expect(
    told.filter((message) => /To keep listening, pay|We will charge|could not charge/.test(message)),
  ).toEqual([]);
  const profile = await request.get(`${baseUrl()}/api/users/${user.sub}/profile`, {
    headers: bearer(user.access_token),
  });
  expect(((await profile.json()) as { Subscriptions: unknown[] }).Subscriptions).toEqual([]);

  // A second trial on this account: none offered, and the call is refused.
  await page.goto('/premium');
  await expect(page.getByText(en('premium:trial.not-eligible.used_account'))).toBeVisible();
  await expect(page.getByRole('button', { name: /^Try free for/ })).toHaveCount(0);
  await page.getByRole('button', { name: 'Монгол' }).click();
  await expect(page.getByText(mn('premium:trial.not-eligible.used_account'))).toBeVisible();
  await page.getByRole('button', { name: 'English' }).click();
  const again = await request.post(`${baseUrl()}/api/premium/trial`, {
    headers: bearer(user.access_token),
    data: { MerchantCode: 'PREMIUM_1M', method: 'qpay' },
  });
  expect(again.status()).toBe(409);
  expect(await again.json()).toMatchObject({ error: 'trial_not_eligible' });

  // The console's dashboard over the year: both trials started, the card's converted, this one cancelled.
  const desk = await consolePage(
    browser,
    baseURL ?? '',
    await createOperator(request, 'admin'),
    undefined,
    await serverNow(request),
  );
  await desk.getByRole('button', { name: '365 days' }).click();
  const trials = desk.getByRole('region', { name: 'Free trials' });
  await expect(trials.getByRole('definition')).toHaveText(['2', '1', '1']);
  await desk.context().close();
});
