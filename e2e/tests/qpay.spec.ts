import type { Page } from '@playwright/test';
import { baseUrl, expect, type SignedInUser, test } from '../fixtures';
import { seriousViolations } from './a11y-helpers';

const LOTTERY = /^[A-Z]{2} \d{8}$/;

function api(page: Page, user: SignedInUser, path: string) {
  return page.request.get(`${baseUrl()}${path}`, {
    headers: { StoreId: 'MNCO', Authorization: `Bearer ${user.access_token}` },
  });
}

async function subscriptions(page: Page, user: SignedInUser) {
  const response = await api(page, user, `/api/users/${user.sub}/subscriptions/?IsFutureActive=false`);
  return (await response.json()) as { SubscriptionId: string }[];
}

/** Chooses QPay and a plan on /premium; the page then shows the pending QPay invoice. */
async function payWithQpay(page: Page, plan: string, labels = { qpay: /^QPay/, get: 'Get package' }) {
  await page.getByRole('radio', { name: labels.qpay }).check();
  await page
    .getByRole('article', { name: plan, exact: true })
    .getByRole('button', { name: labels.get })
    .click();
  await expect(page).toHaveURL(/\/premium\?invoice=[^&]+$/);
}

/** The shopper's phone: the QR's page, a bank app, Approve (or Decline). */
async function answerOnPhone(phone: Page, link: string, approve: boolean) {
  await phone.goto(link);
  await phone.getByRole('link', { name: /Khan bank/ }).click();
  await expect(phone.getByRole('heading', { name: 'Khan bank (sandbox)' })).toBeVisible();
  await phone.getByRole('button', { name: approve ? /^Approve payment/ : /^Decline/ }).click();
  await expect(
    phone.getByRole('heading', { name: approve ? 'Payment approved' : 'Payment declined' }),
  ).toBeVisible();
}

test.describe('paying with QPay through the sandbox', () => {
  test('on a computer: the QR with the amount, a reload keeps it, the phone approves, /success shows the e-barimt lottery number', async ({
    page,
    signIn,
  }) => {
    // A whole journey: the QR, a reload, the phone, up to 30 s for the e-barimt job, two
    // accessibility scans, the profile and the receipt. ~20 s alone; with two CI runs side by
    // side it reached the receipt at 60 s and the default budget ended it there.
    test.setTimeout(120_000);
    await page.setViewportSize({ width: 1440, height: 900 });
    const user = await signIn();
    await page.goto('/premium');
    await payWithQpay(page, 'Premium Family');

    const qpay = page.getByRole('region', { name: 'Pay with QPay' });
    await expect(qpay.getByRole('img', { name: 'QPay QR code to pay 17,900 ₮' })).toBeVisible();
    await expect(qpay.getByText('17,900 ₮')).toBeVisible();
    await expect(qpay.getByRole('status')).toHaveText(/Waiting for your payment/);
    // A computer shows the QR, not the bank apps.
    await expect(qpay.getByRole('link', { name: /Khan bank/ })).toHaveCount(0);
    expect(await seriousViolations(page)).toEqual([]);

    const address = page.url();
    await page.reload();
    await expect(page).toHaveURL(address);
    await expect(qpay.getByRole('img', { name: /QPay QR code/ })).toBeVisible();

    // The QR opens the sandbox's bank apps on a phone; its short link opens the same page.
    const link = await qpay.getByRole('link', { name: 'Open the QPay payment page' }).getAttribute('href');
    const phone = await page.context().newPage();
    await answerOnPhone(phone, link ?? '', true);
    await phone.close();

    await expect(page).toHaveURL(/\/success\?invoiceId=/, { timeout: 20_000 });
    await expect(page.getByRole('heading', { level: 1, name: 'Subscription active' })).toBeVisible();
    const ebarimt = page.getByRole('region', { name: 'E-barimt (VAT receipt)' });
    // The job queue issues it within a few seconds (its scan runs every 5 s here).
    await expect(ebarimt.getByText('Lottery number')).toBeVisible({ timeout: 30_000 });
    await expect(ebarimt.getByText(LOTTERY)).toBeVisible();
    await expect(ebarimt.getByRole('img', { name: 'E-barimt QR code' })).toBeVisible();
    await expect(ebarimt.getByText(/^\d{33}$/)).toBeVisible();
    expect(await seriousViolations(page)).toEqual([]);

    expect(await subscriptions(page, user)).toHaveLength(1);
    const history = (await (await api(page, user, '/api/users/me/payments')).json()) as {
      method: string;
      invoiceId: string;
      receipt: { ebarimt: Record<string, unknown> | null };
    }[];
    expect(history[0]?.method).toBe('qpay');
    // The lottery number and QR data are only ever on the receipt (decision 0033).
    expect(history[0]?.receipt.ebarimt).toEqual({ billId: expect.stringMatching(/^\d{33}$/), company: null });
    const printable = (await (
      await api(page, user, `/api/users/me/receipts/${encodeURIComponent(history[0]?.invoiceId ?? '')}`)
    ).json()) as { receipt: { ebarimt: { lottery: string } } };
    const lottery = printable.receipt.ebarimt.lottery;
    expect(lottery).toMatch(LOTTERY);

    // The payment history says an e-barimt was issued; the printable receipt shows it.
    await page.goto('/profile');
    await expect(page.getByText('E-barimt issued: its lottery number is on the receipt')).toBeVisible();
    await expect(page.getByText(lottery)).toHaveCount(0);
    await page
      .getByRole('link', { name: /^Receipt/ })
      .first()
      .click();
    await expect(page).toHaveURL(/\/receipts\//);
    const printed = page.getByRole('region', { name: 'E-barimt (VAT receipt)' });
    await expect(printed.getByText(lottery)).toBeVisible();
    await expect(printed.getByRole('img', { name: 'E-barimt QR code' })).toBeVisible();
  });

  test('on a phone, in Mongolian: bank-app buttons with logos and names; the bank app pays and the site reaches /success', async ({
    page,
    signIn,
  }) => {
    await page.setViewportSize({ width: 360, height: 780 });
    const user = await signIn();
    await page.goto('/premium');
    await page.getByRole('button', { name: 'Монгол' }).click();
    await payWithQpay(page, 'Премиум Гэр бүл', { qpay: /^QPay/, get: 'Багц авах' });

    const qpay = page.getByRole('region', { name: 'QPay-ээр төлөх' });
    await expect(qpay.getByRole('heading', { name: 'Банкны аппаа сонгоно уу' })).toBeVisible();
    const khan = qpay.getByRole('link', { name: /Khan bank.*Хаан банк/ });
    await expect(khan).toBeVisible();
    await expect(khan.locator('img')).toHaveAttribute('src', /\/sandbox-qpay\/logos\/khanbank\.svg$/);
    await expect(qpay.getByRole('img', { name: /QPay QR код/ })).toHaveCount(0);
    expect(await seriousViolations(page)).toEqual([]);

    // The bank app's deep link opens (here, the sandbox's bank screen), then the listener comes back.
    await khan.click();
    await page.getByRole('button', { name: /^Approve payment/ }).click();
    await expect(page.getByRole('heading', { name: 'Payment approved' })).toBeVisible();
    await page.goBack();
    await page.goBack();
    await expect(page).toHaveURL(/\/success\?invoiceId=/, { timeout: 20_000 });
    await expect(page.getByRole('heading', { level: 1, name: 'Эрх идэвхжлээ' })).toBeVisible();
    await expect(page.getByText('Сугалааны дугаар')).toBeVisible({ timeout: 30_000 });
    expect(await subscriptions(page, user)).toHaveLength(1);
  });

  test('a payment declined in the bank app lands on /failed with nothing activated', async ({
    page,
    signIn,
  }) => {
    await page.setViewportSize({ width: 1440, height: 900 });
    const user = await signIn();
    await page.goto('/premium');
    await payWithQpay(page, 'Premium');
    const link = await page.getByRole('link', { name: 'Open the QPay payment page' }).getAttribute('href');
    const phone = await page.context().newPage();
    await answerOnPhone(phone, link ?? '', false);
    await phone.close();
    await expect(page).toHaveURL(/\/failed\?invoiceId=/, { timeout: 20_000 });
    await expect(page.getByRole('heading', { level: 1, name: 'Payment cancelled' })).toBeVisible();
    expect(await subscriptions(page, user)).toEqual([]);
  });
});
