import type { APIRequestContext, Page } from '@playwright/test';
import { baseUrl, expect } from '../fixtures';
import { testOnOwnServer } from '../own-server';
import { audit } from './a11y-helpers';
import { consolePage, createOperator, expectNoMissingTranslations } from './console-helpers';

/**
 * Plans in the console (issue 38): an admin creates a plan in both languages, badges it, moves it
 * first and retires it, and /premium follows. On a server of its own: it changes what /premium
 * sells, which other specs read.
 */
const test = testOnOwnServer;

/** /premium re-reads the plans at the turn of each minute of the server's clock. */
async function nextMinute(request: APIRequestContext) {
  const moved = await request.post(`${baseUrl()}/dev/clock`, { data: { advanceSeconds: 61 } });
  expect(moved.ok()).toBe(true);
}

const planCards = (page: Page) => page.getByRole('article');

test('an admin creates, badges, orders and retires a plan, and /premium follows', async ({
  browser,
  baseURL,
  page,
  request,
}) => {
  const admin = await consolePage(browser, baseURL ?? baseUrl(), await createOperator(request, 'admin'));
  await admin.getByRole('navigation', { name: 'Console' }).getByRole('link', { name: 'Plans' }).click();
  await expect(admin.getByRole('heading', { name: 'Plans', level: 1 })).toBeVisible();
  await expect(admin.getByRole('row', { name: /Premium Family/ })).toBeVisible();
  const findings = await audit(admin, 'plans');

  const form = admin.getByRole('form', { name: 'New plan' });
  await form.getByLabel('Code').fill('PREMIUM_TRIO_1M');
  await form.getByLabel('Offer').fill('premium-family');
  await form.getByLabel('Name (English)').fill('Premium Trio');
  await form.getByLabel('Name (Mongolian)').fill('Премиум Гурав');
  await form.getByLabel('Description (English)').fill('Three Premium accounts.');
  await form.getByLabel('Description (Mongolian)').fill('Гурван Премиум бүртгэл.');
  await form.getByLabel('Price (₮)').fill('14900');
  await form.getByLabel('Seats').fill('5');
  await form.getByRole('button', { name: 'Create plan' }).click();
  // The shared schema's rule, in the console's words, on the field; nothing was sent.
  await expect(form.getByLabel('Seats')).toHaveAccessibleDescription(
    /A premium-family plan has 2 to 4 seats\./,
  );
  findings.push(...(await audit(admin, 'plans with a refused field')));
  await form.getByLabel('Seats').fill('3');
  await form.getByRole('button', { name: 'Create plan' }).click();
  await expect(admin.getByText('Plan PREMIUM_TRIO_1M created and on sale.')).toBeVisible();
  const row = admin.getByRole('row').filter({ hasText: 'PREMIUM_TRIO_1M' });
  await expect(row).toContainText('14,900 ₮');
  await expect(row).toContainText('Listed');

  // A badge in both languages; a half one is refused on its field.
  await row.getByRole('button', { name: 'Badge' }).click();
  const dialog = admin.getByRole('alertdialog');
  await dialog.getByLabel('Badge (English)').fill('Best value');
  await dialog.getByRole('button', { name: 'Badge' }).click();
  await expect(dialog.getByLabel('Badge (Mongolian)')).toHaveAccessibleDescription(
    /Give the badge in both languages, or in neither\./,
  );
  await dialog.getByLabel('Badge (Mongolian)').fill('Хамгийн ашигтай');
  await dialog.getByRole('button', { name: 'Badge' }).click();
  await expect(admin.getByText('Premium Trio has its badge.')).toBeVisible();

  // First in the order: moved up past every plan before it.
  const rows = admin.getByRole('table', { name: 'Plans' }).getByRole('row');
  // One move at a time: each waits until the list shows it (a move sent from an out-of-date list
  // is refused, as it should be).
  for (let moves = 0; moves < 10; moves++) {
    const at = (await rows.allInnerTexts()).findIndex((text) => text.includes('Premium Trio'));
    if (at <= 1) break;
    await row.getByRole('button', { name: 'Move Premium Trio up' }).click();
    await expect(rows.nth(at - 1)).toContainText('Premium Trio');
  }
  await expect(admin.getByText('Order saved.').first()).toBeVisible();
  await expect(rows.nth(1)).toContainText('Premium Trio');

  await nextMinute(request);
  await page.goto('/premium');
  const first = planCards(page).first();
  await expect(first).toHaveAccessibleName('Premium Trio');
  await expect(first).toContainText('Best value');
  await expect(first).toContainText('14,900');

  // Retired: no new sales; the console keeps it, marked.
  await row.getByRole('button', { name: 'Retire' }).click();
  await admin.getByRole('alertdialog').getByRole('button', { name: 'Retire' }).click();
  await expect(admin.getByText('Premium Trio is retired.')).toBeVisible();
  await expect(row).toContainText('Retired');
  await nextMinute(request);
  await page.goto('/premium');
  await expect(planCards(page).first()).toBeVisible();
  await expect(page.getByRole('article', { name: 'Premium Trio' })).toHaveCount(0);

  // The page in Mongolian.
  await admin.getByRole('button', { name: 'Монгол' }).click();
  await expect(admin.getByRole('heading', { name: 'Багцууд', level: 1 })).toBeVisible();
  await expect(row).toContainText('Зогсоосон');
  await admin.getByRole('button', { name: 'English' }).click();

  // Every change is in the audit log.
  await admin.getByRole('navigation', { name: 'Console' }).getByRole('link', { name: 'Audit log' }).click();
  for (const action of [
    'Added a plan',
    "Changed a plan's badge",
    'Reordered plans',
    'Took a plan off sale',
  ]) {
    await expect(admin.getByText(action).first()).toBeVisible();
  }
  expectNoMissingTranslations(admin);
  expect(findings).toEqual([]);
});
