import { expect, test } from '../fixtures';

const ROUTES: { path: string; en: string; mn: string }[] = [
  { path: '/premium', en: 'Premium', mn: 'Премиум' },
  { path: '/help', en: 'Frequently asked questions', mn: 'Түгээмэл асуулт, хариулт' },
  { path: '/help/faq', en: 'Frequently asked questions', mn: 'Түгээмэл асуулт, хариулт' },
  {
    path: '/help/tos',
    en: 'Terms of service and privacy policy',
    mn: 'Үйлчилгээний нөхцөл ба нууцлалын бодлого',
  },
  { path: '/contact', en: 'Contact us', mn: 'Холбоо барих' },
  { path: '/failed', en: 'Payment cancelled', mn: 'Төлбөр цуцлагдлаа' },
];

test.describe('site shell', () => {
  for (const route of ROUTES) {
    test(`${route.path} renders in English and Mongolian`, async ({ page }) => {
      await page.goto(route.path);
      await expect(page.getByRole('heading', { level: 1, name: route.en })).toBeVisible();
      await page.getByRole('button', { name: 'Монгол' }).click();
      await expect(page.getByRole('heading', { level: 1, name: route.mn })).toBeVisible();
      await expect(page.locator('html')).toHaveAttribute('lang', 'mn');
    });
  }

  test('an unknown path shows the not-found page with a go-home button', async ({ page }) => {
    await page.goto('/no/such/page');
    await expect(page.getByText("Sorry, the page you were trying to view doesn't exist.")).toBeVisible();
    await page.getByRole('link', { name: 'Go home' }).click();
    await expect(page).toHaveURL(/\/$/);
  });

  test('routes match exactly: another case or a trailing slash is no page, and the server answers 404', async ({
    page,
  }) => {
    for (const path of ['/no/such/page', '/HELP/TOS', '/premium/', '/Premium', '/help/faq/', '/receipts/']) {
      const response = await page.goto(path);
      expect(response?.status(), path).toBe(404);
      await expect(
        page.getByText("Sorry, the page you were trying to view doesn't exist."),
        path,
      ).toBeVisible();
      await expect(page.getByRole('link', { name: 'Go home' })).toBeVisible();
    }
    for (const path of ['/', '/premium', '/help', '/help/faq', '/help/tos', '/login', '/invite', '/failed']) {
      const response = await page.goto(path);
      expect(response?.status(), path).toBe(200);
      await expect(page.getByText("Sorry, the page you were trying to view doesn't exist.")).toHaveCount(0);
    }
  });

  test('the chosen language is stored and used on the next visit', async ({ page }) => {
    await page.goto('/contact');
    await page.getByRole('button', { name: 'Монгол' }).click();
    // The choice is stored once the Mongolian catalogue has loaded and the language has switched.
    await expect(page.getByRole('heading', { level: 1, name: 'Холбоо барих' })).toBeVisible();
    await expect.poll(() => page.evaluate(() => localStorage.getItem('language'))).toBe('mn');
    await page.reload();
    await expect(page.getByRole('heading', { level: 1, name: 'Холбоо барих' })).toBeVisible();
    await page.getByRole('button', { name: 'English' }).click();
    await expect(page.getByRole('heading', { level: 1, name: 'Contact us' })).toBeVisible();
  });

  test('header and footer carry the spec links and a Login button for visitors', async ({ page }) => {
    await page.setViewportSize({ width: 1440, height: 900 });
    await page.goto('/contact');
    const header = page.getByRole('banner');
    for (const name of ['Premium', 'Terms', 'FAQ', 'Contact']) {
      await expect(header.getByRole('link', { name, exact: true })).toBeVisible();
    }
    await expect(header.getByRole('link', { name: 'Login' })).toBeVisible();
    const footer = page.getByRole('contentinfo');
    await expect(footer.getByRole('link', { name: 'Terms of service' })).toHaveAttribute('href', '/help/tos');
    await expect(footer.getByText(`© ${new Date().getFullYear()} Tunes`)).toBeVisible();
    await expect(footer.getByRole('link', { name: 'Download on the App Store' })).toBeVisible();
    await expect(footer.getByRole('link', { name: 'Get it on Google Play' })).toBeVisible();
  });

  test('below 1024 px the links move into a slide-out menu', async ({ page }) => {
    await page.setViewportSize({ width: 800, height: 900 });
    await page.goto('/contact');
    await expect(page.getByRole('banner').getByRole('link', { name: 'FAQ', exact: true })).toBeHidden();
    await page.getByRole('button', { name: 'Open menu' }).click();
    const menu = page.getByRole('dialog', { name: 'Menu' });
    await expect(menu.getByText(`© ${new Date().getFullYear()} Tunes`)).toBeVisible();
    await menu.getByRole('link', { name: 'FAQ' }).click();
    await expect(page).toHaveURL(/\/help\/faq$/);
    await expect(menu).toBeHidden();
  });

  test('every route change scrolls to the top', async ({ page }) => {
    await page.setViewportSize({ width: 1440, height: 500 });
    await page.goto('/contact');
    await page.evaluate(() => window.scrollTo(0, document.body.scrollHeight));
    await page.getByRole('contentinfo').getByRole('link', { name: 'FAQ' }).click();
    await expect(page).toHaveURL(/\/help\/faq$/);
    await expect.poll(() => page.evaluate(() => window.scrollY)).toBe(0);
  });

  test('an iPhone sees only the App Store badge', async ({ browser }) => {
    const context = await browser.newContext({
      userAgent: 'Mozilla/5.0 (iPhone; CPU iPhone OS 17_0 like Mac OS X) AppleWebKit/605.1.15 Mobile/15E148',
    });
    const page = await context.newPage();
    await page.goto('/contact');
    await expect(page.getByRole('link', { name: 'Download on the App Store' })).toBeVisible();
    await expect(page.getByRole('link', { name: 'Get it on Google Play' })).toHaveCount(0);
    await context.close();
  });
});
