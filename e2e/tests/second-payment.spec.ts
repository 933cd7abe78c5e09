import { baseUrl, bearer, expect } from '../fixtures';
import { testOnOwnServer as test } from '../own-server';

/**
 * One capture per invoice (issue 33), as the listener sees it: an invoice paid on its QPay QR
 * while its card page stays open (the gateway could not be told to close it), then paid on the
 * card page too. The second payment is given back, and /success says so in the listener's
 * language instead of showing an error. On a server of its own: it orders a gateway fault.
 */
test('a second payment of one invoice is refunded and /success says so', async ({ page, signIn }) => {
  test.setTimeout(90_000);
  const user = await signIn();
  const headers = bearer(user.access_token);
  const api = baseUrl();

  const checkout = await page.request.post(`${api}/api/payments/checkout`, {
    headers,
    data: { MerchantCode: 'PREMIUM_1M', method: 'card' },
  });
  expect(checkout.status(), await checkout.text()).toBe(200);
  const { url, invoiceId } = (await checkout.json()) as { url: string; invoiceId: string };
  const qpay = await page.request.post(`${api}/api/payments/${encodeURIComponent(invoiceId)}/pay`, {
    headers,
    data: { method: 'qpay' },
  });
  expect(qpay.status(), await qpay.text()).toBe(200);
  const { deeplinks } = (await qpay.json()) as { deeplinks: { link: string }[] };

  // The card page is open in one tab; the gateway will not hear that it must close.
  await page.goto(url);
  await expect(page.getByRole('button', { name: /^Pay/ })).toBeVisible();
  const fault = await page.request.post(`${api}/sandbox-gateway/test/faults`, {
    data: { call: 'void', count: 1, kind: 'unavailable' },
  });
  expect(fault.status()).toBe(204);

  // Meanwhile the QR is paid from a phone.
  const phone = await page.context().newPage();
  await phone.goto(deeplinks[0]?.link ?? '');
  await phone.getByRole('button', { name: /^Approve payment/ }).click();
  await expect(phone.getByRole('heading', { name: 'Payment approved' })).toBeVisible();
  await phone.close();

  // Then the card page is paid as well.
  await page.getByLabel(/Card number/).fill('4242 4242 4242 4242');
  await page.getByLabel(/Expiry/).fill('12/39');
  await page.getByLabel(/CVC/).fill('123');
  await page.getByRole('button', { name: /^Pay/ }).click();

  await expect(page).toHaveURL(/\/success\?invoiceId=/);
  await expect(page.getByRole('heading', { name: 'Subscription active' })).toBeVisible();
  await expect(page.getByRole('status').filter({ hasText: 'second payment of 6,900 ₮' })).toContainText(
    'gave it back',
  );
});
