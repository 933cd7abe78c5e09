import type { Page } from '@playwright/test';
import {
  expect,
  latestMessage,
  randomEmail,
  randomMsisdn,
  signInByApi,
  test,
  writeAuthCookie,
} from '../fixtures';
import {
  audit,
  declaredRoutes,
  familyPlanWithInvitation,
  LANGUAGES,
  settle,
  sidewaysOverflow,
  text,
  useLanguage,
  visitAtWidths,
  WIDTHS,
} from './a11y-helpers';

/**
 * architecture.md (WCAG 2.2 AA): axe-core finds no serious or critical violation on any route, in
 * English and Mongolian, at 360 px and 1440 px; nor in the steps of the login modal, the
 * landing page's video modal, the mobile menu, or the signed-in and family-owner pages.
 * Issue 19 (defect 1): no page scrolls sideways at 320, 360, 1024 or 1440 px, on any route, in
 * either language: the document is never wider than the window. One visit checks both.
 */

/** Widths no page may scroll sideways at; axe scans at those of WIDTHS (360 and 1440 px). */
const SIDEWAYS_WIDTHS = [320, 360, 1024, 1440] as const;

/**
 * Visits `path` in both languages through every width of SIDEWAYS_WIDTHS and returns every
 * finding: sideways overflow at each, axe's at 360 and 1440 px.
 */
const checkEverywhere = (page: Page, path: string, ready?: (page: Page) => Promise<void>) =>
  visitAtWidths(
    page,
    path,
    SIDEWAYS_WIDTHS,
    async (current, where) => [
      ...(await sidewaysOverflow(current, where)),
      ...((WIDTHS as readonly number[]).includes(current.viewportSize()?.width ?? 0)
        ? await audit(current, where)
        : []),
    ],
    ready,
  );

test.describe('every route, both languages: axe at 360 and 1440 px, no sideways scroll at 320–1440 px', () => {
  // Each test loads its route twice, scans it four times with axe and measures it at four widths:
  // up to 55 s with two CI runs side by side.
  test.describe.configure({ timeout: 120_000 });
  for (const path of [...declaredRoutes(), '/no/such/page']) {
    test(`${path} as a visitor has no serious or critical violations and never scrolls sideways`, async ({
      page,
    }) => {
      expect(await checkEverywhere(page, path)).toEqual([]);
    });
  }

  for (const path of ['/profile', '/profile-edit', '/success', '/premium', '/invite?code=no-such-code']) {
    test(`${path} signed in has no serious or critical violations and never scrolls sideways`, async ({
      page,
      signIn,
    }) => {
      await signIn();
      expect(await checkEverywhere(page, path)).toEqual([]);
    });
  }

  test("a family owner's profile with invitation links has none and never scrolls sideways", async ({
    page,
  }) => {
    const owner = await signInByApi(page.request);
    await familyPlanWithInvitation(page.request, owner);
    await writeAuthCookie(page, owner);
    const findings = await checkEverywhere(page, '/profile', async (current) => {
      await expect(current.getByRole('textbox').first()).toBeVisible();
    });
    expect(findings).toEqual([]);
  });
});

test.describe('modals and steps', () => {
  // Every step of a modal is scanned with axe: up to 43 s with two CI runs side by side.
  test.describe.configure({ timeout: 120_000 });
  for (const language of LANGUAGES) {
    for (const width of WIDTHS) {
      test(`every step of the login modal (${language}, ${width}px) has none`, async ({ page }) => {
        const say = (key: string) => text(language, key);
        await useLanguage(page, language);
        await page.setViewportSize({ width, height: 900 });
        const findings: string[] = [];
        const dialog = page.getByRole('dialog', { name: say('accounts:modal.title') });
        const step = async (name: string) => findings.push(...(await audit(page, `login: ${name}`)));

        // Mobile: the number, a refused number, then the code.
        await page.goto('/login');
        await settle(page);
        await step('mobile number');
        const phone = dialog.getByLabel(say('accounts:mobile.phone'));
        await phone.fill('8811');
        await dialog.getByRole('button', { name: say('accounts:mobile.verify') }).click();
        await expect(dialog.getByText(say('accounts:messages.cant-authenticate-mobile'))).toBeVisible();
        await step('mobile number refused');
        const msisdn = randomMsisdn();
        await phone.fill(msisdn.slice(3));
        await dialog.getByRole('button', { name: say('accounts:mobile.verify') }).click();
        await expect(dialog.getByLabel(say('accounts:mobile.code'), { exact: true })).toBeVisible();
        await step('mobile code');

        // E-mail: login form, forgot password, create account, verify code, finish account.
        const openEmail = async () => {
          await page.goto('/login');
          await settle(page);
          await dialog.getByRole('button', { name: say('accounts:modal.email'), exact: true }).click();
        };
        await openEmail();
        await step('e-mail login');
        await dialog.getByRole('button', { name: say('accounts:email.forgot') }).click();
        await expect(dialog.getByRole('button', { name: say('accounts:email.send-link') })).toBeVisible();
        await step('forgot password');
        await openEmail();
        await dialog.getByRole('button', { name: say('accounts:email.create'), exact: true }).click();
        await step('create account');
        const email = randomEmail('a11y');
        await dialog.getByLabel(say('accounts:email.address')).fill(email);
        await dialog.getByRole('button', { name: say('accounts:email.request-code') }).click();
        const { code } = await latestMessage(page.request, email);
        const digit = (n: number) =>
          dialog.getByLabel(say('accounts:email.digit').replace('{{n}}', String(n)));
        await expect(digit(1)).toBeVisible();
        await step('verify e-mail code');
        for (const [index, value] of [...(code ?? '')].entries()) await digit(index + 1).fill(value);
        await dialog.getByRole('button', { name: say('accounts:email.verify') }).click();
        await expect(dialog.getByLabel(say('accounts:email.confirm-password'))).toBeVisible();
        await step('finish account');

        expect(findings).toEqual([]);
      });
    }

    test(`the mobile menu and the featured video modal (${language}) have none`, async ({ page }) => {
      const say = (key: string) => text(language, key);
      await useLanguage(page, language);
      const findings: string[] = [];
      await page.setViewportSize({ width: 360, height: 800 });
      await page.goto('/');
      await settle(page);
      await page.getByRole('button', { name: say('common:nav.open-menu') }).click();
      await expect(page.getByRole('dialog')).toBeVisible();
      findings.push(...(await audit(page, 'mobile menu')));
      await page.setViewportSize({ width: 1440, height: 900 });
      await page.goto('/');
      await settle(page);
      await page.getByRole('button', { name: say('content:video.play') }).click();
      await expect(page.getByRole('dialog', { name: say('content:video.dialog') })).toBeVisible();
      findings.push(...(await audit(page, 'video modal')));
      expect(findings).toEqual([]);
    });
  }
});
