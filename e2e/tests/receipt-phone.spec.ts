import { expect, test } from '../fixtures';
import { text } from './a11y-helpers';

const PAID_CARD = '4242 4242 4242 4242';

/**
 * Issue 37 (7): the receipt writes the buyer's number as the site writes numbers elsewhere
 * ("+976 88112233", product.md §3), not as stored ("97688112233"), in both languages.
 */
test('the receipt shows the buyer’s number formatted, in English and Mongolian', async ({ page, signIn }) => {
  const user = await signIn();
  await page.goto('/premium');
  await page
    .getByRole('article', { name: 'Premium', exact: true })
    .getByRole('button', { name: 'Get package' })
    .click();
  await expect(page).toHaveURL(/\/sandbox-gateway\/payment\?token=[\w-]+&os=PC$/);
  await page.getByLabel('Card number').fill(PAID_CARD);
  await page.getByLabel('Expiry (MM/YY)').fill('12/39');
  await page.getByLabel('CVC').fill('123');
  await page.getByRole('button', { name: /^Pay / }).click();
  await expect(page).toHaveURL(/\/success\?invoiceId=/);
  const invoiceId = new URL(page.url()).searchParams.get('invoiceId') ?? '';

  const shown = `+976 ${user.msisdn.slice(3)}`;
  for (const language of ['en', 'mn'] as const) {
    await page.evaluate((code) => window.localStorage.setItem('language', code), language);
    await page.goto(`/receipts/${encodeURIComponent(invoiceId)}`);
    const buyer = page.getByRole('region', { name: text(language, 'billing:receipt.buyer') });
    await expect(buyer).toContainText(shown);
    await expect(buyer).not.toContainText(user.msisdn);
  }
});
