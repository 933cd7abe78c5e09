import { baseUrl, bearer, expect, test } from '../fixtures';
import { text, useLanguage } from './a11y-helpers';

/**
 * Issue 19 (defect 4): dates read right in both languages in every browser. This Chromium has
 * no Mongolian date data, so `Intl` alone would write English month names on a Mongolian page.
 */
const ENGLISH_MONTH = /January|February|March|April|May|June|July|August|September|October|November|December/;
const MONGOLIAN_DATE = /^\d{4} оны \d{1,2}-р сарын \d{1,2}$/;

test('the profile shows Mongolian dates as "2026 оны 12-р сарын 23", with no English month name', async ({
  page,
  signIn,
}) => {
  const user = await signIn();
  const vouchers = await page.request.post(`${baseUrl()}/dev/vouchers`, {
    data: { package: 'PREMIUM_1M', days: 30, count: 1 },
  });
  const [voucher] = ((await vouchers.json()) as { codes: string[] }).codes;
  const redeemed = await page.request.post(`${baseUrl()}/api/users/redeemvoucher`, {
    headers: bearer(user.access_token),
    params: { code: voucher ?? '' },
  });
  expect(redeemed.ok()).toBe(true);

  await useLanguage(page, 'mn');
  await page.goto('/profile');
  const status = page.getByRole('region', { name: text('mn', 'premium:status.title') });
  await expect(status.getByText(text('mn', 'premium:status.start'))).toBeVisible();
  const dates = status.getByRole('definition').filter({ hasText: /оны/ });
  await expect(dates).toHaveCount(2);
  for (const date of await dates.all()) await expect(date).toHaveText(MONGOLIAN_DATE);
  await expect(page.getByRole('main')).not.toContainText(ENGLISH_MONTH);

  // The same page in English names the month.
  await page.getByRole('button', { name: 'English' }).click();
  await expect(page.getByRole('region', { name: 'Subscription' })).toContainText(ENGLISH_MONTH);
});
