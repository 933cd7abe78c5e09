import { baseUrl, bearer, expect } from '../fixtures';
import { testOnOwnServer } from '../own-server';
import { text, useLanguage } from './a11y-helpers';

/**
 * Issue 37 (1): a listener whose Premium ended is told when, with the way back to /premium, not
 * that they have no Premium "yet". The clock moves days ahead, so on a server of its own.
 */
const test = testOnOwnServer;

for (const language of ['en', 'mn'] as const) {
  test(`a lapsed listener reads when Premium ended and can get it again (${language})`, async ({
    page,
    signIn,
  }) => {
    const user = await signIn();
    const created = await page.request.post(`${baseUrl()}/dev/vouchers`, {
      data: { package: 'PREMIUM_1M', days: 1, count: 1 },
    });
    const [code] = ((await created.json()) as { codes: string[] }).codes;
    const redeemed = await page.request.post(`${baseUrl()}/api/users/redeemvoucher`, {
      headers: bearer(user.access_token),
      params: { code: code ?? '' },
    });
    expect(redeemed.ok()).toBe(true);
    const moved = await page.request.post(`${baseUrl()}/dev/clock`, { data: { advanceSeconds: 2 * 86_400 } });
    expect(moved.ok()).toBe(true);
    // Signed in again at the new time: the first session's access token has expired by then.
    await signIn({ msisdn: user.msisdn });

    await useLanguage(page, language);
    await page.goto('/profile');
    const status = page.getByRole('region', { name: text(language, 'premium:status.title') });
    const [before, after] = text(language, 'premium:status.ended').split('{{date}}') as [string, string];
    await expect(status.getByText(before, { exact: false })).toContainText(after);
    await expect(status.getByText(text(language, 'premium:status.none'))).toHaveCount(0);
    await status.getByRole('link', { name: text(language, 'premium:status.go-premium') }).click();
    await expect(page).toHaveURL(/\/premium$/);
  });
}
