import type { Page } from '@playwright/test';
import { baseUrl, expect, latestMessage, outboxMark, serverNow } from '../fixtures';
import { testOnOwnServer } from '../own-server';
import { audit, text } from './a11y-helpers';
import { at, billingOf, DAY_MS, fillCard, PAID_CARD } from './clock-helpers';

/**
 * The card on file replaced through the gateway's save-card page (nothing charged) and the
 * choice of how renewals are paid, card or a QPay link (product.md §12), in English and
 * Mongolian. The clock moves to the renewal, so the file has a server of its own.
 */
const test = testOnOwnServer;
test.describe.configure({ mode: 'default' });

const DECLINED_CARD = '4000 0000 0000 0002';
const FAILS_LATER_CARD = '4000 0000 0000 0341';
const mn = (key: string) => text('mn', key);
const en = (key: string) => text('en', key);

/** Buys Premium on /premium with the card kept for renewals, in the page's language. */
async function buyPremium(page: Page, plan: string, getPackage: string, card: string) {
  await page
    .getByRole('article', { name: plan, exact: true })
    .getByRole('button', { name: getPackage })
    .click();
  await expect(page).toHaveURL(/\/sandbox-gateway\/payment\?token=/);
  await fillCard(page, card);
  await page.getByRole('button', { name: /^Pay / }).click();
  await expect(page).toHaveURL(/\/success\?invoiceId=/);
}

test('a failing card is replaced beside Pay now: nothing charged at the save, the renewal then paid with the new card', async ({
  page,
  signIn,
}) => {
  const user = await signIn();
  await page.goto('/premium');
  await buyPremium(page, 'Premium', 'Get package', FAILS_LATER_CARD);

  const { renewal } = await billingOf(page.request, user);
  const failedMark = await outboxMark(page.request, user.msisdn);
  await at(page.request, new Date(renewal?.endDate ?? '').getTime() + 60_000);
  // The failed-renewal SMS links to our own page, never to the gateway's raw address.
  const failed = await latestMessage(page.request, user.msisdn, failedMark);
  expect(failed.text).toMatch(/^We could not charge/);
  expect(failed.link).toMatch(new RegExp(`^${baseUrl()}/pay/`));
  expect(failed.text).not.toContain('sandbox-gateway');

  await page.goto('/profile');
  const billing = page.getByRole('region', { name: en('billing:title') });
  const alert = billing.getByRole('alert');
  await expect(alert.getByRole('button', { name: en('billing:failed.pay-now') })).toBeVisible();
  // A declined card first: the bank refuses it and the card on file stays.
  await alert.getByRole('button', { name: en('billing:card.replace') }).click();
  await expect(page).toHaveURL(/\/sandbox-gateway\/card\?token=/);
  await expect(page.getByText('Nothing is charged now.')).toBeVisible();
  await fillCard(page, DECLINED_CARD);
  await page.getByRole('button', { name: 'Save card' }).click();
  await expect(page).toHaveURL(/\/profile\?card=declined$/);
  await expect(
    billing.getByRole('alert').filter({ hasText: en('billing:card.return.declined') }),
  ).toBeVisible();
  await expect(billing.getByText('Visa •••• 0341')).toBeVisible();

  await billing
    .getByRole('alert')
    .filter({ has: page.getByRole('heading', { name: en('billing:failed.title') }) })
    .getByRole('button', { name: en('billing:card.replace') })
    .click();
  await fillCard(page, PAID_CARD);
  await page.getByRole('button', { name: 'Save card' }).click();
  await expect(page).toHaveURL(/\/profile\?card=saved$/);
  await expect(
    billing.getByRole('status').filter({ hasText: en('billing:card.return.saved') }),
  ).toBeVisible();
  await expect(billing.getByText('Visa •••• 4242')).toBeVisible();
  // Nothing was charged by the save: the history still holds the purchase and the unpaid renewal.
  await expect(
    billing.getByRole('list', { name: en('billing:history.title') }).getByRole('listitem'),
  ).toHaveCount(2);

  // The next job run charges the new card for the renewal the old one failed.
  const renewedMark = await outboxMark(page.request, user.msisdn);
  await at(page.request, (await serverNow(page.request)).getTime());
  expect((await latestMessage(page.request, user.msisdn, renewedMark)).text).toMatch(/^Your Premium renewed/);
  await page.reload();
  await expect(billing.getByRole('heading', { name: en('billing:failed.title') })).toHaveCount(0);
  await expect(billing.getByText(en('billing:renewal.next-charge'))).toBeVisible();
  expect(await audit(page, 'profile after a card replaced')).toEqual([]);
});

test('in Mongolian: renewals by a QPay link, chosen on /profile; the reminder links to our page, in Mongolian, and the card is kept', async ({
  page,
  signIn,
}) => {
  const user = await signIn();
  await page.goto('/premium');
  await page.getByRole('button', { name: 'Монгол' }).click();
  await buyPremium(page, 'Премиум', mn('premium:plan.get'), PAID_CARD);

  await page.goto('/profile');
  const billing = page.getByRole('region', { name: mn('billing:title') });
  const method = billing.getByRole('group', { name: mn('billing:method.title') });
  const byCard = method.getByRole('radio', { name: /Visa.*4242/ });
  const byQpay = method.getByRole('radio', { name: mn('billing:method.qpay') });
  await expect(byCard).toBeChecked();
  // The choice is the server's: the radio turns when it has answered (click, then expect).
  await byQpay.click();
  await expect(page.getByText(mn('billing:method.now-qpay'))).toBeVisible();
  await expect(byQpay).toBeChecked();
  await expect(billing.getByText(mn('billing:renewal.by-qpay'))).toBeVisible();
  // The card stays on file, and Replace card is there without a failure.
  await expect(billing.getByText('Visa •••• 4242')).toBeVisible();
  await expect(billing.getByRole('button', { name: mn('billing:card.replace') })).toBeVisible();
  await page.reload();
  await expect(byQpay).toBeChecked();

  const end = new Date((await billingOf(page.request, user)).renewal?.endDate ?? '').getTime();
  const mark = await outboxMark(page.request, user.msisdn);
  await at(page.request, end - 3 * DAY_MS + 60_000);
  const reminder = await latestMessage(page.request, user.msisdn, mark);
  expect(reminder.text).toContain('дуусна');
  expect(reminder.link).toMatch(new RegExp(`^${baseUrl()}/pay/`));

  // Back to the card: renewals are charged to it again.
  await byCard.click();
  await expect(page.getByText(mn('billing:method.now-card'))).toBeVisible();
  await expect(byCard).toBeChecked();
  expect((await billingOf(page.request, user)).renewal?.renewsBy).toBe('card');
  await page.reload();
  await expect(byCard).toBeChecked();
  for (const width of [360, 1440]) {
    await page.setViewportSize({ width, height: 900 });
    expect(await audit(page, `profile renewal method mn ${width}px`)).toEqual([]);
  }
});
