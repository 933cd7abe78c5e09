import type { Locator, Page } from '@playwright/test';
import {
  baseUrl,
  expect,
  latestMessage,
  outboxMark,
  readOutbox,
  type SignedInUser,
  STORE,
  test,
} from '../fixtures';
import { seriousViolations, text } from './a11y-helpers';

/**
 * A first password on a phone account (issue 37), on /profile in English and Mongolian: a fresh
 * code to the number proves the holder, then the spec's password rules and texts; the number and
 * the password then sign in, and the holder is told in the account's language.
 */

type Language = 'en' | 'mn';

/** The next code may be asked for: the sign-in's code was sent under 30 s ago (resend wait). */
async function pastResendWait(page: Page) {
  const moved = await page.request.post(`${baseUrl()}/dev/clock`, { data: { advanceSeconds: 31 } });
  expect(moved.ok()).toBe(true);
}

async function setPasswordOnProfile(page: Page, user: SignedInUser, language: Language): Promise<Locator> {
  const say = (key: string) => text(language, key);
  const security = page.getByRole('region', { name: say('accounts:security.title') });
  await expect(security.getByText(say('accounts:security.password-none'))).toBeVisible();
  await expect(security.getByRole('button', { name: say('accounts:password.button') })).toHaveCount(0);
  await security.getByRole('button', { name: say('accounts:set-password.button') }).click();
  const dialog = page.getByRole('dialog', { name: say('accounts:set-password.title') });
  await expect(dialog).toBeVisible();
  const shown = `+976 ${user.msisdn.slice(3)}`;
  await expect(dialog).toContainText(shown);

  await pastResendWait(page);
  const mark = await outboxMark(page.request, user.msisdn);
  await dialog.getByRole('button', { name: say('accounts:set-password.send-code') }).click();
  await expect(dialog.getByRole('status')).toHaveText(
    say('accounts:set-password.code-sent').replace('{{target}}', shown),
  );
  const { code } = await latestMessage(page.request, user.msisdn, mark);
  expect(code).toMatch(/^\d{4}$/);
  return dialog;
}

for (const language of ['en', 'mn'] as const) {
  const say = (key: string) => text(language, key);

  test(`${language}: a phone account sets a first password with a fresh code and the spec's password rules`, async ({
    page,
    signIn,
  }) => {
    const user = await signIn();
    await page.goto('/profile');
    if (language === 'mn') await page.getByRole('button', { name: 'Монгол' }).click();
    const dialog = await setPasswordOnProfile(page, user, language);
    const code = (await readOutbox(page.request, user.msisdn))[0]?.code ?? '';
    const codeField = dialog.getByLabel(say('accounts:set-password.code'));
    const password = dialog.getByLabel(say('accounts:password.new'));
    const confirm = dialog.getByLabel(say('accounts:email.confirm-password'));
    const save = dialog.getByRole('button', { name: say('accounts:set-password.save') });

    // The spec's rules, each in its own words (product.md §5).
    await save.click();
    await expect(dialog.getByText(say('common:validation.invalid-code'))).toBeVisible();
    await expect(dialog.getByText(say('common:validation.password-and-confirm-required'))).toBeVisible();
    await codeField.fill(code);
    await password.fill('12345');
    await confirm.fill('12345');
    await save.click();
    await expect(dialog.getByText(say('common:validation.password-min-length'))).toBeVisible();
    await password.fill('secret-1');
    await confirm.fill('secret-2');
    await save.click();
    await expect(dialog.getByText(say('common:validation.passwords-do-not-match'))).toBeVisible();
    // A wrong code is refused at its field, and the password stays unset.
    await codeField.fill(code === '0000' ? '1111' : '0000');
    await confirm.fill('secret-1');
    await save.click();
    await expect(dialog.getByText(say('accounts:set-password.invalid-code'))).toBeVisible();
    expect(await seriousViolations(page, 'dialog[open]')).toEqual([]);

    const told = await outboxMark(page.request, user.msisdn);
    await codeField.fill(code);
    await save.click();
    await expect(dialog).toBeHidden();
    await expect(
      page.locator('[data-sonner-toast]').filter({ hasText: say('accounts:set-password.done') }),
    ).toBeVisible();
    const security = page.getByRole('region', { name: say('accounts:security.title') });
    await expect(security.getByText(say('accounts:security.password-set-phone'))).toBeVisible();
    await expect(security.getByRole('button', { name: say('accounts:password.button') })).toBeVisible();

    // Told in the account's language; the number and the password now sign in.
    const notice = await latestMessage(page.request, user.msisdn, told);
    expect(notice.text).toMatch(
      language === 'mn' ? /^Таны Tunes бүртгэлд нууц үг үүсгэлээ/ : /^A password was set/,
    );
    const grant = await page.request.post(`${baseUrl()}/api/oauth2/token`, {
      headers: STORE,
      form: { grant_type: 'password', username: user.msisdn, password: 'secret-1' },
    });
    expect(grant.ok(), await grant.text()).toBe(true);
  });
}
