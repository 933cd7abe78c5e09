import type { Locator, Page } from '@playwright/test';
import { expect, latestMessage, randomMsisdn, signInByApi, test, writeAuthCookie } from '../fixtures';
import { familyPlanWithInvitation } from './a11y-helpers';

/**
 * architecture.md: the main journeys work with the keyboard alone. Every step below moves focus with
 * Tab (or Shift+Tab) and acts with Enter, Space or typing; nothing is clicked and no field is
 * filled programmatically. Each walk also checks that focus is visible where it lands.
 */

/** Presses Tab until `target` has focus (at most `limit` presses); fails naming where focus went. */
async function tabTo(page: Page, target: Locator, { limit = 60, backwards = false } = {}) {
  await expect(target).toBeVisible();
  const visited: string[] = [];
  for (let press = 0; press < limit; press++) {
    await page.keyboard.press(backwards ? 'Shift+Tab' : 'Tab');
    if (await target.evaluate((element) => element === document.activeElement)) {
      await expectVisibleFocus(target);
      return;
    }
    visited.push(
      await page.evaluate(() => {
        const active = document.activeElement;
        if (!active) return '(nothing)';
        const name = active.getAttribute('aria-label') ?? active.textContent?.trim().slice(0, 30) ?? '';
        return `${active.tagName.toLowerCase()}${name ? ` "${name}"` : ''}`;
      }),
    );
  }
  throw new Error(`Tab never reached ${target}; focus went through: ${visited.join(', ')}`);
}

/** The focused element shows where focus is (an outline or a box shadow), as WCAG 2.4.7 asks. */
async function expectVisibleFocus(target: Locator) {
  const indicator = await target.evaluate((element) => {
    const style = getComputedStyle(element);
    const outline = style.outlineStyle !== 'none' && Number.parseFloat(style.outlineWidth) > 0;
    return outline || style.boxShadow !== 'none';
  });
  expect(indicator, 'the focused element has a visible focus indicator').toBe(true);
}

async function typeInto(page: Page, field: Locator, value: string) {
  await tabTo(page, field);
  await page.keyboard.type(value);
  await expect(field).toHaveValue(value);
}

test('log in with a mobile number using only the keyboard', async ({ page }) => {
  const msisdn = randomMsisdn();
  await page.goto('/');
  await tabTo(page, page.getByRole('banner').getByRole('link', { name: 'Login' }));
  await page.keyboard.press('Enter');

  const dialog = page.getByRole('dialog', { name: 'Login or register your account' });
  await expect(dialog).toBeVisible();
  // Focus is moved into the modal and kept there.
  await expect.poll(() => dialog.evaluate((element) => element.contains(document.activeElement))).toBe(true);
  await typeInto(page, dialog.getByLabel('Phone number'), msisdn.slice(3));
  await tabTo(page, dialog.getByRole('button', { name: 'Verify' }));
  await page.keyboard.press('Enter');

  const codeField = dialog.getByLabel('Code', { exact: true });
  await expect(codeField).toBeVisible();
  const { code } = await latestMessage(page.request, msisdn);
  await typeInto(page, codeField, code ?? '');
  await tabTo(page, dialog.getByRole('button', { name: 'Continue' }));
  await page.keyboard.press('Enter');

  await expect(page).toHaveURL(/\/profile$/);
  await expect(page.getByText(`+976 ${msisdn.slice(3)}`)).toBeVisible();
});

test('the login modal closes with Escape and never lets focus leave it', async ({ page }) => {
  await page.goto('/premium');
  await tabTo(page, page.getByRole('banner').getByRole('link', { name: 'Login' }));
  await page.keyboard.press('Enter');
  const dialog = page.getByRole('dialog', { name: 'Login or register your account' });
  await expect(dialog).toBeVisible();
  for (let press = 0; press < 25; press++) {
    await page.keyboard.press(press % 2 ? 'Tab' : 'Shift+Tab');
    expect(await dialog.evaluate((element) => element.contains(document.activeElement))).toBe(true);
  }
  await page.keyboard.press('Escape');
  await expect(dialog).toBeHidden();
});

test('buy Premium through the sandbox gateway using only the keyboard', async ({ page, signIn }) => {
  await signIn();
  await page.goto('/premium');
  const plan = page.getByRole('article', { name: 'Premium', exact: true });
  await expect(plan).toBeVisible();
  await tabTo(page, plan.getByRole('button', { name: 'Get package' }));
  await page.keyboard.press('Enter');

  await expect(page).toHaveURL(/\/sandbox-gateway\/payment\?token=/);
  await typeInto(page, page.getByLabel('Card number'), '4242 4242 4242 4242');
  await typeInto(page, page.getByLabel('Expiry (MM/YY)'), '12/39');
  await typeInto(page, page.getByLabel('CVC'), '123');
  await tabTo(page, page.getByRole('button', { name: /^Pay / }));
  await page.keyboard.press('Enter');

  await expect(page).toHaveURL(/\/success\?invoiceId=/);
  await expect(page.getByRole('heading', { level: 1, name: 'Subscription active' })).toBeVisible();
  await tabTo(page, page.getByRole('link', { name: 'Go to your profile' }));
  await page.keyboard.press('Enter');
  await expect(page).toHaveURL(/\/profile$/);
  await expect(
    page.getByRole('region', { name: 'Subscription' }).getByText('Active', { exact: true }),
  ).toBeVisible();
});

test('accept a family invitation using only the keyboard', async ({ page, browser }) => {
  const owner = await signInByApi(page.request);
  const code = await familyPlanWithInvitation(page.request, owner);

  const context = await browser.newContext();
  try {
    const guest = await context.newPage();
    await writeAuthCookie(guest, await signInByApi(guest.request));
    await guest.goto(`/invite?code=${code}`);
    await tabTo(guest, guest.getByRole('button', { name: 'Accept invite' }));
    await guest.keyboard.press('Enter');
    await expect(guest.getByText('You are now part of the family plan!')).toBeVisible();
  } finally {
    await context.close();
  }
});
