import { expect, test } from '../fixtures';

/**
 * The static routes arrive as HTML that already holds the page (search engines, link previews,
 * a first paint before any script), rendered by the same React code the browser then hydrates.
 */
test.describe('prerendered pages without JavaScript', () => {
  test.use({ javaScriptEnabled: false });

  test('the landing page, plans, help, terms and contact hold their main text', async ({ page }) => {
    await page.goto('/');
    await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
    await expect(page.getByRole('heading', { name: 'Artists' })).toBeVisible();
    await page.goto('/premium');
    await expect(page.getByText('Premium Family').first()).toBeVisible();
    await expect(page.getByText('17,900 ₮').first()).toBeVisible();
    await page.goto('/help/faq');
    await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
    await page.goto('/help/tos');
    await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
    await page.goto('/contact');
    await expect(page.getByLabel('Email')).toBeVisible();
  });

  test('in the language the listener chose last time', async ({ page, context, baseURL }) => {
    await context.addCookies([{ name: 'lang', value: 'mn', url: baseURL ?? '' }]);
    await page.goto('/premium');
    await expect(page.locator('html')).toHaveAttribute('lang', 'mn');
    await expect(page.getByText('Премиум Гэр бүл').first()).toBeVisible();
  });
});

test('the prerendered pages hydrate without errors and respond', async ({ page }) => {
  const errors: string[] = [];
  page.on('console', (message) => {
    if (message.type() === 'error') errors.push(message.text());
  });
  page.on('pageerror', (error) => errors.push(error.message));
  for (const path of ['/', '/premium', '/help/faq', '/help/tos', '/contact']) {
    await page.goto(path);
    await expect(page.locator('#ssr-state')).toHaveCount(1);
    await page.waitForLoadState('networkidle');
  }
  expect(errors.filter((text) => /hydrat|did not match|server rendered/i.test(text))).toEqual([]);
  // Hydrated: the language switch works in place.
  await page.getByRole('button', { name: 'Монгол' }).click();
  await expect(page.locator('html')).toHaveAttribute('lang', 'mn');
});

test('a prerendered page is sent compressed with its ETag, and 304 to a copy that still holds', async ({
  request,
}) => {
  const first = await request.get('/premium', { headers: { 'accept-encoding': 'br', cookie: 'lang=mn' } });
  expect(first.status()).toBe(200);
  expect(first.headers()['content-encoding']).toBe('br');
  expect(first.headers().vary).toBe('cookie, accept-encoding');
  expect(await first.text()).toContain('Премиум Гэр бүл');
  const etag = first.headers().etag ?? '';
  expect(etag).toMatch(/^".+"$/);
  const again = await request.get('/premium', { headers: { 'if-none-match': etag, cookie: 'lang=mn' } });
  expect(again.status()).toBe(304);
  // The other language is another page, with another ETag.
  const english = await request.get('/premium', { headers: { 'if-none-match': etag, cookie: 'lang=en' } });
  expect(english.status()).toBe(200);
  expect(await english.text()).toContain('Premium Family');
});
