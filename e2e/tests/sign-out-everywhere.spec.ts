import type { Browser, Page } from '@playwright/test';
import { baseUrl, expect, registerEmailUserByApi, test } from '../fixtures';
import { LANGUAGES, text, useLanguage } from './a11y-helpers';

/**
 * Issue 37 (defect B): signing out everywhere is immediate. Two browsers are signed in as one
 * listener; "sign out all other devices" or a password change in one sends the other to sign in
 * at its next profile load, within seconds — not once its access token expires minutes later.
 */

type Language = (typeof LANGUAGES)[number];

/** Waits, as a person does, until the page responds (the fixtures' pages do it on their own). */
const interactive = (page: Page) => page.waitForSelector('html[data-interactive]', { state: 'attached' });

/** Signs in through the site's e-mail login, in `language`, and waits for /profile. */
async function signInThroughSite(page: Page, language: Language, email: string, password: string) {
  const say = (key: string) => text(language, key);
  await useLanguage(page, language);
  await page.goto('/login');
  await interactive(page);
  const dialog = page.getByRole('dialog', { name: say('accounts:modal.title') });
  await dialog.getByRole('button', { name: say('accounts:modal.email') }).click();
  await dialog.getByLabel(say('accounts:email.address')).fill(email);
  await dialog.getByLabel(say('accounts:email.password'), { exact: true }).fill(password);
  await dialog.getByRole('button', { name: say('accounts:email.login'), exact: true }).click();
  await expect(page).toHaveURL(/\/profile$/);
  await expect(page.getByRole('list', { name: say('accounts:devices.title') })).toBeVisible();
}

/** A second browser (its own cookies and storage) signed in as the same listener. */
async function secondBrowser(browser: Browser, language: Language, email: string, password: string) {
  const context = await browser.newContext({ baseURL: baseUrl() });
  const page = await context.newPage();
  await signInThroughSite(page, language, email, password);
  return { context, page };
}

/** The other browser's next load of /profile ends signed out, on /, with the way to sign in. */
async function expectSentToSignIn(page: Page, language: Language) {
  const startedAt = Date.now();
  await page.reload();
  await interactive(page);
  await expect(page).toHaveURL(`${baseUrl()}/`, { timeout: 5000 });
  await expect(page.getByRole('link', { name: text(language, 'common:nav.login') })).toBeVisible();
  expect(Date.now() - startedAt, 'signed out within seconds').toBeLessThan(5000);
  expect(await page.context().cookies()).not.toContainEqual(expect.objectContaining({ name: 'authData' }));
  await page.goto('/profile');
  await expect(page).toHaveURL(`${baseUrl()}/`);
}

for (const language of LANGUAGES) {
  const say = (key: string) => text(language, key);

  test.describe(`sign-out everywhere is immediate (${language})`, () => {
    test("'sign out all other devices' in one browser signs the other out at its next profile load", async ({
      page,
      browser,
    }) => {
      const { email, password } = await registerEmailUserByApi(page.request);
      const other = await secondBrowser(browser, language, email, password);
      await signInThroughSite(page, language, email, password);
      // The other browser reads its profile: signed in, its access token minutes from expiry.
      await other.page.reload();
      await interactive(other.page);
      await expect(other.page.getByRole('list', { name: say('accounts:devices.title') })).toBeVisible();

      const devices = page.getByRole('list', { name: say('accounts:devices.title') });
      await expect(devices.getByRole('listitem')).toHaveCount(2);
      await page.getByRole('button', { name: say('accounts:devices.sign-out-others') }).click();
      await expect(page.getByText(say('accounts:devices.signed-out-others'))).toBeVisible();

      await expectSentToSignIn(other.page, language);
      // The browser that asked stays signed in.
      await page.reload();
      await expect(devices.getByRole('listitem')).toHaveCount(1);
      await other.context.close();
    });

    test('a password change in one browser signs the other out at its next profile load', async ({
      page,
      browser,
    }) => {
      const { email, password } = await registerEmailUserByApi(page.request);
      const other = await secondBrowser(browser, language, email, password);
      await signInThroughSite(page, language, email, password);

      await page.getByRole('button', { name: say('accounts:password.button') }).click();
      const dialog = page.getByRole('dialog', { name: say('accounts:password.title') });
      await dialog.getByLabel(say('accounts:password.current')).fill(password);
      await dialog.getByLabel(say('accounts:password.new'), { exact: true }).fill('brand-new-secret');
      await dialog.getByLabel(say('accounts:email.confirm-password')).fill('brand-new-secret');
      await dialog.getByRole('button', { name: say('accounts:password.save') }).click();
      await expect(page.getByText(say('accounts:password.done'))).toBeVisible();

      await expectSentToSignIn(other.page, language);
      await page.reload();
      await expect(page.getByRole('list', { name: say('accounts:devices.title') })).toBeVisible();
      await other.context.close();
    });
  });
}
