import { baseUrl, expect, signIn as signInPage, test } from '../fixtures';

test.describe('vouchers', () => {
  test('a voucher activates Premium and a second use fails', async ({ page, signIn, browser }) => {
    const created = await page.request.post(`${baseUrl()}/dev/vouchers`, {
      data: { package: 'PREMIUM_1M', days: 30, count: 1 },
    });
    const [code] = ((await created.json()) as { codes: string[] }).codes;
    await signIn();
    await page.goto('/profile');
    const box = page.getByRole('region', { name: 'Redeem a voucher' });
    const input = box.getByLabel('Voucher code');

    // The pattern is enforced while typing: only letters, digits and hyphens, at most 15.
    await input.pressSequentially('ab c_d!-1234567890123');
    await expect(input).toHaveValue('abcd-1234567890');

    await input.fill(code ?? '');
    await box.getByRole('button', { name: 'Redeem' }).click();
    await expect(box.getByText('Voucher successfully activated')).toBeVisible();
    await expect(input).toHaveValue('');
    const status = page.getByRole('region', { name: 'Subscription' });
    await expect(status.getByText('Active', { exact: true })).toBeVisible();
    await expect(status.getByText(/^Activated with a voucher\. Premium runs until /)).toBeVisible();
    await expect(status.getByRole('button', { name: 'Cancel Premium' })).toHaveCount(0);

    // The subscriber cannot redeem again.
    await input.fill(code ?? '');
    await box.getByRole('button', { name: 'Redeem' }).click();
    await expect(box.getByText('You already an active subscription')).toBeVisible();

    // Someone else cannot use the spent code.
    const other = await browser.newContext();
    const otherPage = await other.newPage();
    await signInPage(otherPage);
    await otherPage.goto('/profile');
    await otherPage.getByLabel('Voucher code').fill(code ?? '');
    await otherPage.getByRole('button', { name: 'Redeem' }).click();
    await expect(otherPage.getByText('Voucher is not valid.')).toBeVisible();
    await other.close();
  });

  test('five wrong codes lock redeeming for an hour', async ({ page, signIn }) => {
    await signIn();
    await page.goto('/profile');
    const input = page.getByLabel('Voucher code');
    for (let i = 0; i < 5; i++) {
      await input.fill(`WRONG-${i}`);
      await page.getByRole('button', { name: 'Redeem' }).click();
      await expect(page.getByText('Voucher is not valid.')).toBeVisible();
    }
    await input.fill('WRONG-6');
    await page.getByRole('button', { name: 'Redeem' }).click();
    await expect(page.getByText('Too many wrong codes. You can try again in an hour.')).toBeVisible();
  });
});
