import type { APIRequestContext, Page } from '@playwright/test';
import { baseUrl, expect, readOutbox, type SignedInUser, serverNow } from '../fixtures';
import { testOnOwnServer } from '../own-server';
import { at, billingOf, DAY_MS, fillCard, paymentsOf } from './clock-helpers';
import { consolePage, createOperator } from './console-helpers';

/**
 * A price change with notice (issue 38, product.md §1 "30-day notice of price changes"), walked
 * with the development clock on a server of its own: an admin raises Premium's price in the
 * console; the subscriber is told at once and again before the first charge at the new price,
 * /profile shows the coming price, and the new price is charged only from the first renewal at
 * least 30 days after the change.
 */
const test = testOnOwnServer;
test.describe.configure({ mode: 'default' });

/** The amounts of the subscriber's paid renewals, oldest first. */
async function renewalAmounts(request: APIRequestContext, user: SignedInUser): Promise<number[]> {
  return (await paymentsOf(request, user))
    .filter((payment) => payment.kind === 'renewal' && payment.status === 'paid')
    .map((payment) => payment.amount);
}

/** The price messages the subscriber was sent, oldest first. */
async function priceMessages(request: APIRequestContext, user: SignedInUser): Promise<string[]> {
  return (await readOutbox(request, user.msisdn))
    .map((message) => message.text)
    .filter((text) => /price/.test(text))
    .reverse();
}

async function buyPremium(page: Page) {
  await page.goto('/premium');
  await expect(page.getByRole('checkbox', { name: 'Save my card for renewals' })).toBeChecked();
  await page
    .getByRole('article', { name: 'Premium', exact: true })
    .getByRole('button', { name: 'Get package' })
    .click();
  await expect(page).toHaveURL(/\/sandbox-gateway\/payment\?token=[\w-]+&os=PC$/);
  await fillCard(page);
  await page.getByRole('button', { name: /^Pay / }).click();
  await expect(page).toHaveURL(/\/success\?invoiceId=/);
}

test('a price rise reaches a subscriber with two messages and is charged only from the first renewal 30+ days on', async ({
  browser,
  baseURL,
  page,
  request,
  signIn,
}) => {
  test.setTimeout(180_000);
  const user = await signIn();
  await buyPremium(page);
  const bought = await billingOf(request, user);
  const firstRenewal = new Date(bought.renewal?.endDate ?? '').getTime();
  expect(bought.renewal?.amount).toBe(6900);

  // Five days on, an admin raises the price in the console.
  await at(request, (await serverNow(request)).getTime() + 5 * DAY_MS);
  // Signed in with the authenticator's code for the server's clock, moved days ahead.
  const admin = await consolePage(
    browser,
    baseURL ?? baseUrl(),
    await createOperator(request, 'admin'),
    undefined,
    await serverNow(request),
  );
  await admin.getByRole('navigation', { name: 'Console' }).getByRole('link', { name: 'Plans' }).click();
  const row = admin.getByRole('row').filter({ hasText: 'PREMIUM_1M · premium' });
  await row.getByRole('button', { name: 'New price' }).click();
  const dialog = admin.getByRole('alertdialog');
  await expect(dialog).toContainText('at least 30 days from now');
  await dialog.getByLabel('Price (₮)').fill('7900');
  await dialog.getByRole('button', { name: 'New price' }).click();
  await expect(admin.getByText(/^New price 7,900 ₮\. 1 subscriber is told/)).toBeVisible();
  await expect(row).toContainText('Was 6,900 ₮');
  await admin.context().close();

  // The first message goes at once; /profile shows the coming price and its date, in both languages.
  await at(request, (await serverNow(request)).getTime() + 60_000);
  const told = await priceMessages(request, user);
  expect(told).toEqual([expect.stringMatching(/^The price of your Premium changes from ₮6,900 to ₮7,900\./)]);
  const notice = (await billingOf(request, user)).renewal?.priceChange;
  expect(notice).toMatchObject({ amount: 7900, previousAmount: 6900 });
  const secondRenewal = new Date(notice?.from ?? '').getTime();
  expect(secondRenewal).toBeGreaterThan(firstRenewal);
  await page.goto('/profile');
  const billing = page.getByRole('region', { name: 'Billing' });
  await expect(
    billing.getByText(/^From your renewal on .+ your plan costs 7,900 ₮ \(now 6,900 ₮\)\./),
  ).toBeVisible();
  await page.getByRole('button', { name: 'Монгол' }).click();
  await expect(page.getByText(/сунгалтаас эхлэн таны багцын үнэ 7[, {2}]?900/)).toBeVisible();
  await page.getByRole('button', { name: 'English' }).click();

  // The renewal inside the 30 days is charged the old price.
  await at(request, firstRenewal - 3 * DAY_MS + 60_000);
  await at(request, firstRenewal + 60_000);
  expect(await renewalAmounts(request, user)).toEqual([6900]);
  expect(await priceMessages(request, user)).toHaveLength(1);

  // A week before the first charge at the new price, the second message; then the charge.
  await at(request, secondRenewal - 7 * DAY_MS + 60_000);
  const both = await priceMessages(request, user);
  expect(both).toHaveLength(2);
  expect(both[1]).toMatch(/^Reminder: on .+ your Premium renews at its new price of ₮7,900 \(was ₮6,900\)\./);
  await at(request, secondRenewal - 3 * DAY_MS + 60_000);
  await at(request, secondRenewal + 60_000);
  expect(await renewalAmounts(request, user)).toEqual([6900, 7900]);
  expect(await priceMessages(request, user)).toHaveLength(2);
  await page.reload();
  await expect(billing.getByText(/your plan costs/)).toHaveCount(0);
});
