import { invitationLink } from '@tunes/shared/family-codes';
import { baseUrl, expect, signIn, test } from '../fixtures';
import { familyPlanWithInvitation, LANGUAGES, text, useLanguage } from './a11y-helpers';

const numbered = (value: string, number: number) => value.replace('{{number}}', String(number));

/** Issue 37: an owner withdraws an unused invitation; its link no longer joins anyone. */
for (const language of LANGUAGES) {
  test(`an owner withdraws an unused invitation and the link stops working (${language})`, async ({
    page,
    browser,
  }) => {
    test.setTimeout(120_000);
    await useLanguage(page, language);
    const owner = await signIn(page);
    const code = await familyPlanWithInvitation(page.request, owner);
    await page.goto('/profile');

    const links = page.getByRole('list', { name: text(language, 'family:invite.links') });
    await expect(links.getByRole('textbox')).toHaveValue(invitationLink(baseUrl(), code));
    const withdraw = page.getByRole('button', {
      name: numbered(text(language, 'family:invite.withdraw-label'), 1),
    });

    // Keeping the link changes nothing.
    await withdraw.click();
    const dialog = page.getByRole('alertdialog', {
      name: numbered(text(language, 'family:invite.withdraw-title'), 1),
    });
    await expect(dialog.getByText(text(language, 'family:invite.withdraw-text'))).toBeVisible();
    await dialog.getByRole('button', { name: text(language, 'family:invite.withdraw-keep') }).click();
    await expect(dialog).toHaveCount(0);
    await expect(links.getByRole('textbox')).toHaveCount(1);

    await withdraw.click();
    await dialog.getByRole('button', { name: text(language, 'family:invite.withdraw'), exact: true }).click();
    await expect(page.getByText(text(language, 'family:invite.withdrawn'))).toBeVisible();
    await expect(links).toHaveCount(0);
    await expect(
      page.getByText(text(language, 'family:manage.remaining_other').replace('{{count}}', '3')),
    ).toBeVisible();

    // Whoever holds the link is told it is no longer valid.
    const context = await browser.newContext();
    const invitee = await context.newPage();
    await useLanguage(invitee, language);
    await signIn(invitee);
    await invitee.goto(`/invite?code=${code}`);
    await invitee.getByRole('button', { name: text(language, 'family:join.accept') }).click();
    await expect(invitee.getByText(text(language, 'family:join.invalid'))).toBeVisible();
    await context.close();
  });
}
