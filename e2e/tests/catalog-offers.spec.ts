import type { APIRequestContext, Browser, Page } from '@playwright/test';
import { baseUrl, bearer, expect, readOutbox, type SignedInUser, serverNow, signInByApi } from '../fixtures';
import { testOnOwnServer } from '../own-server';
import { audit, text } from './a11y-helpers';
import { at, billingOf, DAY_MS, fillCard, paymentsOf } from './clock-helpers';
import { consolePage, createOperator } from './console-helpers';

/**
 * Offers (issue 38), walked with the development clock on a server of its own: an admin makes an
 * offer in the console; a new listener follows its link to /premium, sees the plans at the
 * offer's price and buys one by card; /profile shows the offer; the renewals inside its periods
 * are charged the offer's price and the next the full price; the receipt shows the discount. An
 * ended offer's code says so, in English and Mongolian; a burst of checkouts stops at the
 * offer's limit.
 */
const test = testOnOwnServer;
test.describe.configure({ mode: 'default' });

const en = (key: string) => text('en', key);
const mn = (key: string) => text('mn', key);
const newCode = (prefix: string) => `${prefix}-${Date.now().toString(36).toUpperCase()}`;

/** A new admin signs in to the console in a browser of their own and makes the offer there. */
async function offerFromConsole(
  browser: Browser,
  baseURL: string,
  request: APIRequestContext,
  offer: Parameters<typeof makeOffer>[1],
): Promise<void> {
  const admin = await consolePage(browser, baseURL, await createOperator(request, 'admin'));
  await makeOffer(admin, offer);
  await admin.context().close();
}

/** An admin makes an offer on the console's Offers page: `percent` off the first `periods` payments. */
async function makeOffer(
  page: Page,
  offer: { code: string; percent: number; periods: number; limit: number },
): Promise<void> {
  await page.getByRole('navigation', { name: 'Console' }).getByRole('link', { name: 'Offers' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Offers' })).toBeVisible();
  const form = page.getByRole('form', { name: 'New offer' });
  await form.getByLabel('Code').fill(offer.code);
  await form.getByLabel('Kind').selectOption('percent');
  await form.getByLabel('Percent off').fill(String(offer.percent));
  await form.getByLabel('Discounted payments').fill(String(offer.periods));
  await form.getByLabel('For', { exact: true }).selectOption('new');
  await form.getByLabel('Redemption limit').fill(String(offer.limit));
  await form.getByRole('button', { name: 'Create offer' }).click();
  await expect(page.getByText(`Offer ${offer.code} created.`)).toBeVisible();
  const row = page.getByRole('row').filter({ hasText: offer.code });
  await expect(row).toContainText(
    offer.periods === 1
      ? `${offer.percent}% off the first payment`
      : `${offer.percent}% off the first ${offer.periods} payments`,
  );
  await expect(row).toContainText(`0 of ${offer.limit}`);
  await expect(row).toContainText('Open');
}

/** The amounts of the listener's paid invoices of `kind`, oldest first. */
async function paid(request: APIRequestContext, user: SignedInUser, kind: 'purchase' | 'renewal') {
  return (await paymentsOf(request, user))
    .filter((payment) => payment.kind === kind && payment.status === 'paid')
    .map((payment) => payment.amount);
}

test("an ended offer's code says so, in English and Mongolian", async ({
  browser,
  baseURL,
  page,
  request,
}) => {
  const code = newCode('ENDED');
  const admin = await consolePage(browser, baseURL ?? '', await createOperator(request, 'admin'));
  await makeOffer(admin, { code, percent: 30, periods: 1, limit: 5 });
  const row = admin.getByRole('row').filter({ hasText: code });
  await row.getByRole('button', { name: 'End offer' }).click();
  const confirm = admin.getByRole('alertdialog', { name: `End ${code}?` });
  await confirm.getByRole('button', { name: 'End offer' }).click();
  await expect(admin.getByText(`Offer ${code} has ended.`)).toBeVisible();
  await expect(row).toContainText('Ended');
  await admin.context().close();

  // A visitor follows the link (its code in any case): the offer has ended, and no plan is discounted.
  await page.goto(`/premium?offer=${code.toLowerCase()}`);
  await expect(page.getByLabel(en('premium:offer.label'))).toHaveValue(code);
  await expect(page.getByRole('alert').filter({ hasText: en('premium:offer.refused.ended') })).toHaveText(
    'This offer has ended.',
  );
  await expect(page.getByText(en('premium:offer.price-label'))).toHaveCount(0);
  await page.getByRole('button', { name: 'Монгол' }).click();
  await expect(page.getByRole('alert').filter({ hasText: mn('premium:offer.refused.ended') })).toBeVisible();
  await page.getByRole('button', { name: 'English' }).click();

  // A code no offer has is not valid.
  await page.getByLabel(en('premium:offer.label')).fill('NO-SUCH-OFFER');
  await page.getByRole('button', { name: en('premium:offer.apply') }).click();
  await expect(page.getByRole('alert').filter({ hasText: 'This offer code is not valid.' })).toBeVisible();
});

test('a burst of 20 checkouts with a code limited to 3 buys 3; the next listener is told it is fully redeemed', async ({
  browser,
  baseURL,
  page,
  request,
  signIn,
}) => {
  test.setTimeout(180_000);
  const code = newCode('FEW');
  await offerFromConsole(browser, baseURL ?? '', request, { code, percent: 20, periods: 1, limit: 3 });

  // Twenty listeners send their checkout with the code at the same moment.
  const listeners = await Promise.all(Array.from({ length: 20 }, () => signInByApi(request)));
  const answers = await Promise.all(
    listeners.map((listener) =>
      request.post(`${baseUrl()}/api/payments/checkout`, {
        headers: bearer(listener.access_token),
        data: { MerchantCode: 'PREMIUM_1M', OfferCode: code },
      }),
    ),
  );
  const statuses = answers.map((answer) => answer.status());
  expect(statuses.filter((status) => status === 200)).toHaveLength(3);
  expect(statuses.filter((status) => status === 409)).toHaveLength(17);

  // The next listener who follows the code sees it is used up, in both languages.
  await signIn();
  await page.goto(`/premium?offer=${code}`);
  await expect(page.getByRole('alert').filter({ hasText: en('premium:offer.refused.exhausted') })).toHaveText(
    'This offer has been fully redeemed.',
  );
  await page.getByRole('button', { name: 'Монгол' }).click();
  await expect(
    page.getByRole('alert').filter({ hasText: mn('premium:offer.refused.exhausted') }),
  ).toBeVisible();
});

// Last: it moves the server's clock.
test('an offer by its link: 50% off the purchase and the first renewal, then the full price', async ({
  browser,
  baseURL,
  page,
  request,
  signIn,
}) => {
  test.setTimeout(180_000);
  const code = newCode('HALF');
  await offerFromConsole(browser, baseURL ?? '', request, { code, percent: 50, periods: 2, limit: 5 });

  // A new listener follows the link: the plans show their price with the offer.
  const user = await signIn();
  await page.goto(`/premium?offer=${code}`);
  await expect(page.getByRole('status').filter({ hasText: `Offer ${code}:` })).toHaveText(
    `Offer ${code}: 50% off your first 2 months.`,
  );
  const premium = page.getByRole('article', { name: 'Premium', exact: true });
  await expect(premium.getByText('3,450 ₮')).toBeVisible();
  await expect(premium).toContainText(`a month for your first 2 months with ${code}, then 6,900 ₮`);
  await expect(
    page.getByRole('article', { name: 'Premium Family', exact: true }).getByText('8,950 ₮'),
  ).toBeVisible();
  expect(await audit(page, 'premium with an offer')).toEqual([]);
  await page.getByRole('button', { name: 'Монгол' }).click();
  await expect(page.getByRole('status').filter({ hasText: `${code} урамшуулал` })).toContainText('50%');
  await page.getByRole('button', { name: 'English' }).click();

  // Bought by card through the sandbox gateway: the purchase is charged the offer's price.
  await expect(page.getByRole('checkbox', { name: 'Save my card for renewals' })).toBeChecked();
  await premium.getByRole('button', { name: 'Get package' }).click();
  await expect(page).toHaveURL(/\/sandbox-gateway\/payment\?token=[\w-]+&os=PC$/);
  await expect(page.getByRole('button', { name: /^Pay / })).toContainText('3,450');
  await fillCard(page);
  await page.getByRole('button', { name: /^Pay / }).click();
  await expect(page).toHaveURL(/\/success\?invoiceId=/);
  expect(await paid(request, user, 'purchase')).toEqual([3450]);

  // Its receipt shows the plan's price, the offer's discount and what was paid, in both languages.
  const purchase = (await paymentsOf(request, user)).find((payment) => payment.kind === 'purchase');
  await page.goto(purchase?.receipt?.url ?? '/receipts/none');
  const receipt = page.getByRole('article', { name: en('billing:receipt.title') });
  const line = (term: string) =>
    receipt.locator('dt', { hasText: term }).locator('xpath=following-sibling::dd');
  await expect(line(en('billing:receipt.list-price'))).toHaveText('6,900 ₮');
  await expect(line(en('billing:receipt.discount'))).toHaveText('−3,450 ₮');
  await expect(line(en('billing:receipt.amount'))).toHaveText('3,450 ₮');
  await page.getByRole('button', { name: 'Монгол' }).click();
  const receiptMn = page.getByRole('article', { name: mn('billing:receipt.title') });
  const lineMn = (term: string) =>
    receiptMn.locator('dt', { hasText: term }).locator('xpath=following-sibling::dd');
  await expect(lineMn(mn('billing:receipt.list-price'))).toHaveText(/^6\D?900 ₮$/);
  await expect(lineMn(mn('billing:receipt.discount'))).toHaveText(/^−3\D?450 ₮$/);
  await expect(lineMn(mn('billing:receipt.amount'))).toHaveText(/^3\D?450 ₮$/);
  await page.getByRole('button', { name: 'English' }).click();

  // /profile shows the offer: one more payment at its price, and the next amount.
  const bought = await billingOf(request, user);
  expect(bought.offer).toMatchObject({ code, periodsLeft: 1, nextAmount: 3450 });
  await page.goto('/profile');
  const billing = page.getByRole('region', { name: en('billing:title') });
  await expect(billing.getByRole('heading', { name: en('billing:offer.title') })).toBeVisible();
  await expect(billing).toContainText(`Offer ${code}: 50% off. 1 more payment at the offer price.`);
  await expect(billing.getByRole('definition').filter({ hasText: '3,450 ₮' }).first()).toBeVisible();
  await page.getByRole('button', { name: 'Монгол' }).click();
  // The block's own name is Mongolian now.
  await expect(page.getByRole('heading', { name: mn('billing:offer.title') })).toBeVisible();
  await expect(page.getByText(`${code} урамшуулал: 50% хямдрал.`, { exact: false })).toBeVisible();
  await page.getByRole('button', { name: 'English' }).click();

  // Renewal 1 (period 2 of 2): reminded of and charged the offer's price.
  const firstRenewal = new Date(bought.renewal?.endDate ?? '').getTime();
  await at(request, firstRenewal - 3 * DAY_MS + 60_000);
  const reminders = async () =>
    (await readOutbox(request, user.msisdn))
      .map((message) => message.text)
      .filter((t) => /renews on/.test(t));
  expect((await reminders())[0]).toContain('₮3,450');
  await at(request, firstRenewal + 60_000);
  expect(await paid(request, user, 'renewal')).toEqual([3450]);
  const renewed = await billingOf(request, user);
  expect(renewed.offer ?? null).toEqual(
    renewed.offer ? expect.objectContaining({ periodsLeft: 0, nextAmount: 6900 }) : null,
  );
  expect(renewed.renewal?.amount).toBe(6900);

  // Renewal 2: the offer's periods are used, the full price.
  const secondRenewal = new Date(renewed.renewal?.endDate ?? '').getTime();
  await at(request, secondRenewal - 3 * DAY_MS + 60_000);
  expect((await reminders())[0]).toContain('₮6,900');
  await at(request, secondRenewal + 60_000);
  expect(await paid(request, user, 'renewal')).toEqual([3450, 6900]);

  // The payment history on /profile lists the three payments at their amounts.
  await page.reload();
  const history = billing.getByRole('list', { name: en('billing:history.title') }).getByRole('listitem');
  await expect(history.filter({ hasText: '3,450 ₮' }).filter({ hasText: 'Paid' })).toHaveCount(2);
  await expect(history.filter({ hasText: '6,900 ₮' }).filter({ hasText: 'Paid' })).toHaveCount(1);

  // The console's dashboard: the offer's revenue (its two discounted payments) and the plan's.
  const desk = await consolePage(
    browser,
    baseURL ?? '',
    await createOperator(request, 'admin'),
    undefined,
    await serverNow(request),
  );
  await desk.getByRole('button', { name: '365 days' }).click();
  const byOffer = desk
    .getByRole('table', { name: 'Revenue by offer' })
    .getByRole('row')
    .filter({ hasText: code });
  await expect(byOffer).toContainText('6,900 ₮');
  await expect(byOffer.getByRole('cell').first()).toHaveText('1');
  await expect(
    desk.getByRole('table', { name: 'Revenue by plan' }).getByRole('row').filter({ hasText: 'PREMIUM_1M' }),
  ).toContainText('13,800 ₮');
  await desk.context().close();
});
