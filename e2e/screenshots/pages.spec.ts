import { fileURLToPath } from 'node:url';
import type { Page } from '@playwright/test';
import { baseUrl, bearer, expect, signInByApi, test, writeAuthCookie } from '../fixtures';
import { familyPlanWithInvitation, LANGUAGES, settle } from '../tests/a11y-helpers';

const OUT = fileURLToPath(new URL('../../docs/screenshots/', import.meta.url));
const WIDTHS = [360, 1440] as const;
/** Tall enough to show a page's first screens, short enough to keep the 12 files near 3 MB. */
const MAX_HEIGHT = { 360: 2000, 1440: 1350 } as const;

async function shoot(page: Page, path: string, name: string) {
  for (const language of LANGUAGES) {
    for (const width of WIDTHS) {
      await page.setViewportSize({ width, height: 900 });
      if (!page.url().startsWith('http')) await page.goto('/help');
      await page.evaluate((code) => window.localStorage.setItem('language', code), language);
      await page.goto(path);
      await settle(page);
      await expect(page.locator('html')).toHaveAttribute('lang', language);
      // Lazy images load as they come into view: scroll down once, then back to the top.
      await page.evaluate(async () => {
        for (let y = 0; y < document.documentElement.scrollHeight; y += window.innerHeight / 2) {
          window.scrollTo(0, y);
          await new Promise((resolve) => setTimeout(resolve, 120));
        }
        window.scrollTo(0, 0);
        await document.fonts.ready;
      });
      await page.waitForLoadState('networkidle');
      // Autoplaying carousels hold still (the pause button) so the picture is the same each time.
      await page
        .getByRole('button', { name: /^(Pause automatic scrolling|Автоматаар гүйлгэхийг зогсоох)$/ })
        .evaluateAll((buttons) => {
          for (const button of buttons) (button as HTMLButtonElement).click();
        });
      await page.evaluate(() => window.scrollTo(0, 0));
      const height = await page.evaluate(() => document.documentElement.scrollHeight);
      await page.screenshot({
        path: `${OUT}${name}-${width}-${language}.png`,
        clip: { x: 0, y: 0, width, height: Math.min(height, MAX_HEIGHT[width]) },
        fullPage: true,
        animations: 'disabled',
      });
    }
  }
}

test.describe('screenshots for docs/screenshots', () => {
  test('the landing page as a visitor', async ({ page }) => {
    test.setTimeout(180_000);
    await shoot(page, '/', 'landing');
  });

  test('/premium as a visitor', async ({ page }) => {
    test.setTimeout(180_000);
    await shoot(page, '/premium', 'premium');
  });

  test('the profile of a family owner with a member', async ({ page, browser }) => {
    test.setTimeout(120_000);
    const owner = await signInByApi(page.request);
    const auth = bearer(owner.access_token);
    await page.request.patch(`${baseUrl()}/api/users/me/details`, {
      headers: auth,
      data: { FirstName: 'Bolor', LastName: 'Batbayar' },
    });
    const code = await familyPlanWithInvitation(page.request, owner);
    const other = await browser.newContext();
    const member = await signInByApi(other.request);
    await other.request.patch(`${baseUrl()}/api/users/me/details`, {
      headers: bearer(member.access_token),
      data: { FirstName: 'Saraa' },
    });
    const joined = await other.request.post(`${baseUrl()}/api/subscription/invitations/${code}`, {
      headers: bearer(member.access_token),
    });
    expect(joined.ok()).toBe(true);
    await other.close();
    await writeAuthCookie(page, owner);
    await shoot(page, '/profile', 'profile');
  });
});
