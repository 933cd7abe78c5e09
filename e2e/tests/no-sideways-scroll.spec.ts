import type { Page } from '@playwright/test';
import { expect, signInByApi, test, writeAuthCookie } from '../fixtures';
import { declaredRoutes, familyPlanWithInvitation, LANGUAGES, settle } from './a11y-helpers';

/**
 * Issue 19 (defect 1): no page scrolls sideways at 320, 360, 1024 or 1440 px, on any route, in
 * either language: the document is never wider than the window.
 */
const WIDTHS = [320, 360, 1024, 1440] as const;

/** How far the page is wider than the window, and the widest elements that make it so. */
async function sidewaysOverflow(page: Page) {
  return page.evaluate(() => {
    const width = window.innerWidth;
    const overflow = document.documentElement.scrollWidth - width;
    // The outermost elements past the right edge that no ancestor clips: what widens the page.
    const clipped = (element: Element) => {
      for (
        let parent = element.parentElement;
        parent && parent !== document.body;
        parent = parent.parentElement
      )
        if (getComputedStyle(parent).overflowX !== 'visible') return true;
      return false;
    };
    const culprits =
      overflow <= 0
        ? []
        : Array.from(document.querySelectorAll('body *'))
            .filter((element) => element.getBoundingClientRect().right > width + 0.5 && !clipped(element))
            .filter((element, _, all) => !all.some((other) => other !== element && other.contains(element)))
            .slice(0, 4)
            .map((element) => {
              const right = Math.round(element.getBoundingClientRect().right);
              const name = `${element.tagName.toLowerCase()}.${Array.from(element.classList).join('.')}`;
              return `${name} (right ${right}px)`;
            });
    return { overflow, culprits };
  });
}

/** Visits `path` in both languages at every width; returns where the page scrolls sideways. */
async function sidewaysEverywhere(page: Page, path: string, ready?: (page: Page) => Promise<void>) {
  const findings: string[] = [];
  for (const language of LANGUAGES) {
    for (const width of WIDTHS) {
      await page.setViewportSize({ width, height: 800 });
      if (!page.url().startsWith('http')) await page.goto('/help');
      await page.evaluate((code) => window.localStorage.setItem('language', code), language);
      await page.goto(path);
      await settle(page);
      await expect(page.locator('html')).toHaveAttribute('lang', language);
      await ready?.(page);
      const { overflow, culprits } = await sidewaysOverflow(page);
      if (overflow > 0)
        findings.push(`${path} ${language} ${width}px: ${overflow}px too wide: ${culprits.join(', ')}`);
    }
  }
  return findings;
}

test.describe('no page scrolls sideways at 320, 360, 1024 and 1440 px', () => {
  for (const path of [...declaredRoutes(), '/no/such/page']) {
    test(`${path} as a visitor`, async ({ page }) => {
      expect(await sidewaysEverywhere(page, path)).toEqual([]);
    });
  }

  for (const path of ['/profile', '/profile-edit', '/premium', '/success', '/invite?code=no-such-code']) {
    test(`${path} signed in`, async ({ page, signIn }) => {
      await signIn();
      expect(await sidewaysEverywhere(page, path)).toEqual([]);
    });
  }

  test("a family owner's profile with an invitation link", async ({ page }) => {
    const owner = await signInByApi(page.request);
    await familyPlanWithInvitation(page.request, owner);
    await writeAuthCookie(page, owner);
    const findings = await sidewaysEverywhere(page, '/profile', async (current) => {
      await expect(current.getByRole('textbox').first()).toBeVisible();
    });
    expect(findings).toEqual([]);
  });
});
