import type { Page } from '@playwright/test';
import { baseUrl, bearer, expect, type SignedInUser, signInByApi, test } from '../fixtures';

/**
 * Issue 19 (defect 2): /success says what the invoice in its address actually did, as the API
 * reports it; only a paid invoice of the signed-in user says "Subscription active".
 */

const DECLINED_CARD = '4000 0000 0000 0002';

/** Starts a card checkout for `user` through the API; the invoice stays open until paid. */
async function openInvoice(page: Page, user: SignedInUser): Promise<{ invoiceId: string; url: string }> {
  const response = await page.request.post(`${baseUrl()}/api/payments/checkout`, {
    headers: bearer(user.access_token),
    data: { MerchantCode: 'PREMIUM_1M' },
  });
  expect(response.ok(), await response.text()).toBe(true);
  return (await response.json()) as { invoiceId: string; url: string };
}

const active = (page: Page) => page.getByRole('heading', { level: 1, name: 'Subscription active' });

test.describe('/success reads the invoice', () => {
  test('without an invoice id it says there is no payment to show', async ({ page, signIn }) => {
    await signIn();
    await page.goto('/success');
    await expect(page.getByRole('heading', { level: 1, name: 'Payment not found' })).toBeVisible();
    await expect(active(page)).toHaveCount(0);
    await expect(page.getByRole('link', { name: 'Go to your profile' })).toBeVisible();
  });

  test("another user's invoice is not shown as this user's subscription", async ({ page, signIn }) => {
    const other = await signInByApi(page.request);
    const { invoiceId } = await openInvoice(page, other);
    await signIn();
    await page.goto(`/success?invoiceId=${invoiceId}`);
    await expect(page.getByRole('heading', { level: 1, name: 'Payment not found' })).toBeVisible();
    await expect(active(page)).toHaveCount(0);
  });

  test('a declined invoice says the payment did not go through', async ({ page, signIn }) => {
    const user = await signIn();
    const { invoiceId, url } = await openInvoice(page, user);
    await page.goto(url);
    await page.getByLabel('Card number').fill(DECLINED_CARD);
    await page.getByLabel('Expiry (MM/YY)').fill('12/39');
    await page.getByLabel('CVC').fill('123');
    await page.getByRole('button', { name: /^Pay / }).click();
    await expect(page).toHaveURL(/\/failed\?invoiceId=/);

    await page.goto(`/success?invoiceId=${invoiceId}`);
    await expect(page.getByRole('heading', { level: 1, name: 'Payment cancelled' })).toBeVisible();
    await expect(active(page)).toHaveCount(0);
    await expect(page.getByRole('link', { name: 'Back to plans' })).toBeVisible();
  });

  test('an invoice not paid yet says it is being confirmed, in Mongolian too', async ({ page, signIn }) => {
    const user = await signIn();
    const { invoiceId } = await openInvoice(page, user);
    await page.goto(`/success?invoiceId=${invoiceId}`);
    await expect(page.getByRole('heading', { level: 1, name: 'Confirming your payment' })).toBeVisible();
    await expect(active(page)).toHaveCount(0);
    await page.getByRole('button', { name: 'Монгол' }).click();
    await expect(
      page.getByRole('heading', { level: 1, name: 'Төлбөрийг баталгаажуулж байна' }),
    ).toBeVisible();
  });
});
