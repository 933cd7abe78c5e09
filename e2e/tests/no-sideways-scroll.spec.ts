import type { Page } from '@playwright/test';
import { expect, signInByApi, test, writeAuthCookie } from '../fixtures';
import { declaredRoutes, familyPlanWithInvitation, visitAtWidths } from './a11y-helpers';

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

/** Where `path` scrolls sideways in both languages at every width. */
const sidewaysEverywhere = (page: Page, path: string, ready?: (page: Page) => Promise<void>) =>
  visitAtWidths(
    page,
    path,
    WIDTHS,
    async (current, where) => {
      const { overflow, culprits } = await sidewaysOverflow(current);
      return overflow > 0 ? [`${where}: ${overflow}px too wide: ${culprits.join(', ')}`] : [];
    },
    ready,
  );

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
