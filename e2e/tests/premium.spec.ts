import type { Page } from '@playwright/test';
import {
  baseUrl,
  bearer,
  expect,
  latestMessage,
  randomMsisdn,
  type SignedInUser,
  serverNow,
  test,
} from '../fixtures';

const PLANS = [
  { code: 'PREMIUM_1M', name: 'Premium', price: '6,900 ₮', users: '1 user' },
  {
    code: 'PREMIUM_DUO_1M',
    name: 'Premium Duo',
    price: '9,900 ₮',
    users: '2 users',
    old: '13,800 ₮',
    badge: '28% off',
  },
  {
    code: 'PREMIUM_FAMILY_1M',
    name: 'Premium Family',
    price: '17,900 ₮',
    users: '4 users',
    old: '27,600 ₮',
    badge: '35% off',
  },
] as const;

const PAID_CARD = '4242 4242 4242 4242';
const DECLINED_CARD = '4000 0000 0000 0002';

const planCard = (page: Page, name: string) => page.getByRole('article', { name, exact: true });

async function choosePlan(page: Page, name: string, { keepOnPage = false } = {}) {
  if (!keepOnPage) await page.goto('/premium');
  await planCard(page, name).getByRole('button', { name: 'Get package' }).click();
  await expect(page).toHaveURL(/\/sandbox-gateway\/payment\?token=[\w-]+&os=PC$/);
}

async function payWithCard(page: Page, card: string) {
  await page.getByLabel('Card number').fill(card);
  await page.getByLabel('Expiry (MM/YY)').fill('12/39');
  await page.getByLabel('CVC').fill('123');
  await page.getByRole('button', { name: /^Pay / }).click();
}

async function expectNoSubscription(page: Page, user: SignedInUser) {
  const response = await page.request.get(`${baseUrl()}/api/users/${user.sub}/subscriptions/`, {
    headers: bearer(user.access_token),
    params: { IsFutureActive: 'false' },
  });
  expect(await response.json()).toEqual([]);
}

test.describe('/premium for a visitor', () => {
  test('shows the three MNT plans, the Free vs Premium table, and sends a visitor choosing a plan to /login', async ({
    page,
  }) => {
    await page.goto('/premium');
    await expect(page.getByRole('heading', { level: 1, name: 'Premium' })).toBeVisible();
    await expect(page.getByText('Log in or register your account to get Premium.')).toBeVisible();
    await expect(page.getByRole('article')).toHaveCount(3);
    await expect(page.getByLabel('Currency')).toHaveValue('MNT');
    for (const plan of PLANS) {
      const card = planCard(page, plan.name);
      await expect(card.getByText(plan.price)).toBeVisible();
      await expect(card.getByText(plan.users, { exact: true })).toBeVisible();
      await expect(card.getByRole('listitem')).toHaveCount(6);
      await expect(card.getByText('per month')).toBeVisible();
      if ('old' in plan) {
        await expect(card.locator('del')).toContainText(plan.old);
        await expect(card.getByRole('img', { name: plan.badge })).toBeVisible();
      }
    }
    await expect(page.getByText('Premium (USD)')).toHaveCount(0);
    await expect(page.getByText('Premium Annual')).toHaveCount(0);

    const table = page.getByRole('table');
    await expect(table.getByRole('row')).toHaveCount(8);
    await expect(table.getByRole('img', { name: 'Not included' })).toHaveCount(6);
    await expect(table.getByRole('img', { name: 'Included', exact: true })).toHaveCount(8);

    await planCard(page, 'Premium Duo').getByRole('button', { name: 'Get package' }).click();
    await expect(page).toHaveURL(/\/login\?next=%2Fpremium$/);
  });

  test('signing in from the plans prompt comes back to the plans, not to /profile', async ({ page }) => {
    const msisdn = randomMsisdn();
    await page.goto('/premium');
    await page.getByRole('link', { name: 'Log in or register' }).click();
    const dialog = page.getByRole('dialog', { name: 'Login or register your account' });
    await dialog.getByLabel('Phone number').fill(msisdn.slice(3));
    await dialog.getByRole('button', { name: 'Verify' }).click();
    const { code } = await latestMessage(page.request, msisdn);
    await dialog.getByLabel('Code', { exact: true }).fill(code ?? '');
    await dialog.getByRole('button', { name: 'Continue' }).click();
    await expect(page).toHaveURL(/\/premium$/);
    await expect(page.getByRole('checkbox', { name: 'Save my card for renewals' })).toBeVisible();
    await expect(page.getByRole('article')).toHaveCount(3);
  });

  test('a link to /login cannot send the user to another site after signing in', async ({ page, signIn }) => {
    await signIn();
    await page.goto('/login?next=%2F%2Fevil.example');
    await expect(page).toHaveURL(/\/profile$/);
  });

  test('prices follow the active language', async ({ page }) => {
    await page.goto('/premium');
    await page.getByRole('button', { name: 'Монгол' }).click();
    await expect(page.getByRole('article', { name: 'Премиум Гэр бүл' })).toBeVisible();
    await expect(page.getByRole('button', { name: 'Багц авах' }).first()).toBeVisible();
  });

  test('/success sends a visitor home', async ({ page }) => {
    await page.goto('/success');
    await expect(page).toHaveURL(`${baseUrl()}/`);
  });
});

test.describe('buying Premium with the sandbox card gateway', () => {
  for (const plan of PLANS) {
    test(`a signed-in user buys ${plan.name} with the paid test card and the profile shows it active`, async ({
      page,
      signIn,
    }) => {
      await signIn();
      await choosePlan(page, plan.name);
      await expect(page.getByText(plan.price, { exact: true })).toBeVisible();
      const paidFrom = await serverNow(page.request);
      await payWithCard(page, PAID_CARD);

      await expect(page).toHaveURL(/\/success\?invoiceId=/);
      await expect(page.getByRole('heading', { level: 1, name: 'Subscription active' })).toBeVisible();
      const nav = page.getByRole('navigation', { name: 'Main' });
      await expect(nav.getByRole('link', { name: 'Terms' })).toBeVisible();
      await expect(nav.getByRole('link', { name: 'Premium' })).toHaveCount(0);

      await page.getByRole('link', { name: 'Go to your profile' }).click();
      await expect(page).toHaveURL(/\/profile$/);
      const status = page.getByRole('region', { name: 'Subscription' });
      await expect(status.getByText('Active', { exact: true })).toBeVisible();
      await expect(status.getByText(plan.name, { exact: true })).toBeVisible();
      // The period starts on the server's day of the purchase (its clock may pass midnight meanwhile).
      const day = new Intl.DateTimeFormat('en', { dateStyle: 'long' });
      const days = new Set([day.format(paidFrom), day.format(await serverNow(page.request))]);
      await expect(status.getByText(new RegExp([...days].join('|'))).first()).toBeVisible();
      await expect(status.getByRole('definition').filter({ hasText: 'Yes' })).toBeVisible();
      // The card was kept for renewals (the checkout's default): the billing block says so.
      const billing = page.getByRole('region', { name: 'Billing' });
      await expect(billing.getByText('Visa •••• 4242')).toBeVisible();
      await expect(billing.getByRole('definition').filter({ hasText: plan.price })).toBeVisible();

      await page.goto('/premium');
      await expect(page).toHaveURL(`${baseUrl()}/`);
    });
  }

  test('the declined card lands on /failed with nothing activated', async ({ page, signIn }) => {
    const user = await signIn();
    await choosePlan(page, 'Premium');
    await payWithCard(page, DECLINED_CARD);
    await expect(page).toHaveURL(/\/failed\?invoiceId=/);
    await expect(page.getByRole('heading', { level: 1, name: 'Payment cancelled' })).toBeVisible();
    await expectNoSubscription(page, user);
    await page.goto('/profile');
    await expect(page.getByRole('region', { name: 'Subscription' }).getByText('Inactive')).toBeVisible();
    await expect(page.getByRole('link', { name: 'Go Premium' })).toBeVisible();
  });

  test('Cancel on the gateway lands on /failed with nothing activated', async ({ page, signIn }) => {
    const user = await signIn();
    await choosePlan(page, 'Premium Family');
    await page.getByRole('button', { name: 'Cancel' }).click();
    await expect(page).toHaveURL(/\/failed\?invoiceId=/);
    await expect(page.getByRole('alert').filter({ hasText: 'nothing was charged' })).toBeVisible();
    await expectNoSubscription(page, user);
    await page.getByRole('link', { name: 'Back to plans' }).click();
    await expect(page.getByRole('article')).toHaveCount(3);
  });

  test('cancelling Premium turns auto-renew off and keeps access to the end of the period', async ({
    page,
    signIn,
  }) => {
    await signIn();
    await choosePlan(page, 'Premium');
    await payWithCard(page, PAID_CARD);
    await expect(page).toHaveURL(/\/success/);
    await page.goto('/profile');
    const status = page.getByRole('region', { name: 'Subscription' });
    await status.getByRole('button', { name: 'Cancel Premium' }).click();
    const dialog = page.getByRole('alertdialog', { name: 'Cancel Premium?' });
    await expect(dialog).toHaveAccessibleDescription(/Auto-renew will be turned off/);
    await dialog.getByRole('button', { name: 'Cancel Premium' }).click();
    await expect(status.getByText(/Premium is cancelled\. You keep access until/)).toBeVisible();
    await expect(status.getByText('Active', { exact: true })).toBeVisible();
    await expect(status.getByRole('definition').filter({ hasText: /^No$/ })).toBeVisible();
    await expect(status.getByRole('button', { name: 'Cancel Premium' })).toHaveCount(0);
    // The billing block offers to turn auto-renew back on.
    const billing = page.getByRole('region', { name: 'Billing' });
    await expect(billing.getByText(/Premium ends on .+ — auto-renew is off\./)).toBeVisible();
    await billing.getByRole('button', { name: 'Resume auto-renew' }).click();
    await expect(status.getByRole('definition').filter({ hasText: /^Yes$/ })).toBeVisible();
    await expect(billing.getByText('Next charge')).toBeVisible();
  });

  test('without the saved card, the profile says renewals come as a payment link', async ({
    page,
    signIn,
  }) => {
    await signIn();
    await page.goto('/premium');
    const save = page.getByRole('checkbox', { name: 'Save my card for renewals' });
    await save.uncheck();
    await expect(save).toHaveAccessibleDescription(/Your card won't be kept/);
    await choosePlan(page, 'Premium', { keepOnPage: true });
    await payWithCard(page, PAID_CARD);
    await expect(page).toHaveURL(/\/success/);
    await page.goto('/profile');
    const billing = page.getByRole('region', { name: 'Billing' });
    await expect(
      billing.getByText('No card saved. Renewals come as a payment link by SMS or e-mail.'),
    ).toBeVisible();
    await expect(billing.getByText(/No card is saved, so we'll send you a payment link/)).toBeVisible();
  });

  test('the mobile menu hides Premium once subscribed and shows the store note for App Store plans', async ({
    page,
    signIn,
  }) => {
    await page.setViewportSize({ width: 390, height: 800 });
    const user = await signIn();
    await page.goto('/');
    await page.getByRole('button', { name: 'Open menu' }).click();
    await expect(page.locator('#mobile-menu').getByRole('link', { name: 'Premium' })).toBeVisible();

    const created = await page.request.post(`${baseUrl()}/dev/premium/subscriptions`, {
      data: { userId: user.sub, MerchantCode: 'PREMIUM_1M', SourceType: 'Apple IAP' },
    });
    expect(created.status()).toBe(201);
    await page.goto('/profile');
    await expect(page.getByText(/bought through Apple In-App Purchase/)).toBeVisible();
    await expect(page.getByRole('button', { name: 'Cancel Premium' })).toHaveCount(0);
    await page.getByRole('button', { name: 'Open menu' }).click();
    await expect(page.locator('#mobile-menu').getByRole('link', { name: 'Terms' })).toBeVisible();
    await expect(page.locator('#mobile-menu').getByRole('link', { name: 'Premium' })).toHaveCount(0);
  });
});
