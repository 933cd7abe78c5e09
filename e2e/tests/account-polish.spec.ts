import type { APIRequestContext, Locator, Page } from '@playwright/test';
import { invitationLink } from '@tunes/shared/family-codes';
import {
  baseUrl,
  bearer,
  expect,
  latestMessage,
  outboxMark,
  randomEmail,
  randomMsisdn,
  type SignedInUser,
  signInByApi,
  test,
} from '../fixtures';
import { testOnOwnServer } from '../own-server';
import { familyPlanWithInvitation, LANGUAGES, text, useLanguage, WIDTHS } from './a11y-helpers';
import { at, DAY_MS } from './clock-helpers';

/**
 * Issue 37's smaller listener defects: an invitation sent by SMS or e-mail, toasts that leave the
 * header's controls free, the QPay page saying what is bought, and the remove-member dialog
 * naming the member (in Mongolian with correct grammar).
 */

type Language = (typeof LANGUAGES)[number];
const fill = (value: string, values: Record<string, string | number>) =>
  value.replace(/\{\{(\w+)\}\}/g, (_, name: string) => String(values[name] ?? ''));

/** The owner's first name and language, as the messages they send use them. */
async function nameOwner(request: APIRequestContext, owner: SignedInUser, language: Language, name: string) {
  const patched = await request.patch(`${baseUrl()}/api/users/me/details`, {
    headers: bearer(owner.access_token),
    data: { Language: language, FirstName: name },
  });
  expect(patched.ok(), await patched.text()).toBe(true);
}

const OWNER_NAME: Record<Language, string> = { en: 'Saraa', mn: 'Сараа' };
const INVITATION_TEXT: Record<Language, RegExp> = {
  en: /^Saraa invited you to share their Tunes Premium plan\. Sign in and accept by [A-Z][a-z]+ \d{1,2}, \d{4}: /,
  mn: /^Сараа таныг хуваалцсан Tunes Премиум багцдаа урьж байна\. .+ \d{4} оны \d{1,2}-р сарын \d{1,2} хүртэл хүчинтэй/,
};

for (const language of LANGUAGES) {
  const say = (key: string) => text(language, key);

  test(`(${language}) the owner sends an invitation link by SMS and by e-mail, in the owner's language`, async ({
    page,
    signIn,
  }) => {
    test.setTimeout(90_000);
    await useLanguage(page, language);
    const owner = await signIn();
    await nameOwner(page.request, owner, language, OWNER_NAME[language]);
    const code = await familyPlanWithInvitation(page.request, owner);
    await page.goto('/profile');

    const open = () =>
      page.getByRole('button', { name: fill(say('family:invite.send-label'), { number: 1 }) }).click();
    const dialog = page.getByRole('dialog', { name: fill(say('family:invite.send-title'), { number: 1 }) });
    const field = dialog.getByLabel(say('family:invite.send-to'));
    const submit = dialog.getByRole('button', { name: say('family:invite.send-submit') });

    // Neither a number nor an address: said at the field, nothing sent.
    await open();
    await field.fill('12 34');
    await submit.click();
    await expect(dialog.getByText(say('common:validation.invite-recipient'))).toBeVisible();

    // A Mongolian number, as people write it: the SMS carries the link and its last day.
    const msisdn = randomMsisdn();
    const national = `${msisdn.slice(3, 7)} ${msisdn.slice(7)}`;
    const beforeSms = await outboxMark(page.request, msisdn);
    await field.fill(national);
    await submit.click();
    await expect(dialog).toBeHidden();
    await expect(
      page
        .locator('[data-sonner-toast]')
        .filter({ hasText: fill(say('family:invite.sent-sms'), { to: national }) }),
    ).toBeVisible();
    const sms = await latestMessage(page.request, msisdn, beforeSms);
    expect(sms.channel).toBe('sms');
    expect(sms.link).toBe(invitationLink(baseUrl(), code));
    expect(sms.text).toMatch(INVITATION_TEXT[language]);

    // An e-mail address: the same link by e-mail.
    const email = randomEmail('invitee');
    const beforeEmail = await outboxMark(page.request, email);
    await open();
    await field.fill(email);
    await submit.click();
    await expect(dialog).toBeHidden();
    const mail = await latestMessage(page.request, email, beforeEmail);
    expect(mail.channel).toBe('email');
    expect(mail.link).toBe(invitationLink(baseUrl(), code));
    expect(mail.text).toMatch(INVITATION_TEXT[language]);

    // The invitee follows the link and joins.
    const invitee = await signInByApi(page.request);
    const joined = await page.request.post(`${baseUrl()}/api/subscription/invitations/${code}`, {
      headers: bearer(invitee.access_token),
    });
    expect(joined.ok(), await joined.text()).toBe(true);
  });

  test(`(${language}) the remove-member dialog names the member, by first name or else by number`, async ({
    page,
    signIn,
  }) => {
    test.setTimeout(90_000);
    await useLanguage(page, language);
    const owner = await signIn();
    const auth = bearer(owner.access_token);
    const named = await signInByApi(page.request);
    const patched = await page.request.patch(`${baseUrl()}/api/users/me/details`, {
      headers: bearer(named.access_token),
      data: { FirstName: language === 'mn' ? 'Болд' : 'Bold' },
    });
    expect(patched.ok()).toBe(true);
    const unnamed = await signInByApi(page.request);
    const first = await familyPlanWithInvitation(page.request, owner);
    const profile = await page.request.get(`${baseUrl()}/api/users/${owner.sub}/profile`, { headers: auth });
    const subscriptionId = ((await profile.json()) as { Subscriptions: { SubscriptionId: string }[] })
      .Subscriptions[0]?.SubscriptionId;
    const second = await page.request.post(
      `${baseUrl()}/api/subscription/${subscriptionId}/invitation-code`,
      {
        headers: auth,
      },
    );
    const codes = [first, ((await second.json()) as { Code: string }).Code];
    for (const [index, member] of [named, unnamed].entries()) {
      const joined = await page.request.post(`${baseUrl()}/api/subscription/invitations/${codes[index]}`, {
        headers: bearer(member.access_token),
      });
      expect(joined.ok(), await joined.text()).toBe(true);
    }
    await page.goto('/profile');

    const number = `+976 ${unnamed.msisdn.slice(3)}`;
    for (const name of [language === 'mn' ? 'Болд' : 'Bold', number]) {
      await page.getByRole('button', { name: fill(say('family:manage.remove-label'), { name }) }).click();
      const dialog = page.getByRole('alertdialog', {
        name: fill(say('family:manage.confirm-title'), { name }),
      });
      await expect(dialog).toContainText(fill(say('family:manage.confirm'), { name }));
      if (language === 'mn') {
        // The accusative falls on "гишүүн", so no suffix is glued to a name or a number.
        await expect(dialog.getByRole('heading')).toHaveText(`${name} гишүүнийг багцаасаа хасах уу?`);
      } else {
        await expect(dialog.getByRole('heading')).toHaveText(`Remove ${name} from your plan?`);
      }
      await dialog.getByRole('button', { name: say('family:manage.confirm-keep') }).click();
      await expect(dialog).toBeHidden();
    }
    // Removing the member named by number takes them off the list.
    await page
      .getByRole('button', { name: fill(say('family:manage.remove-label'), { name: number }) })
      .click();
    await page
      .getByRole('alertdialog')
      .getByRole('button', { name: say('family:manage.remove'), exact: true })
      .click();
    const members = page.getByRole('list', { name: say('family:manage.list') });
    await expect(members.getByRole('listitem')).toHaveCount(1);
  });

  test(`(${language}) the QPay page says which plan and period are being paid for`, async ({
    page,
    signIn,
  }) => {
    test.setTimeout(60_000);
    await useLanguage(page, language);
    await page.setViewportSize({ width: 1440, height: 900 });
    await signIn();
    const plans = await page.request.get(`${baseUrl()}/api/packages/allplans`, {
      params: { merchantId: 14 },
    });
    const family = (
      (await plans.json()) as { MerchantCode: string; Name: { Language: string; Value: string }[] }[]
    ).find((plan) => plan.MerchantCode === 'PREMIUM_FAMILY_1M');
    const planName = family?.Name.find((name) => name.Language === language)?.Value ?? '';
    expect(planName).not.toBe('');
    await page.goto('/premium');
    await page.getByRole('radio', { name: /^QPay/ }).check();
    await page
      .getByRole('article', { name: planName, exact: true })
      .getByRole('button', { name: say('premium:plan.get') })
      .click();
    await expect(page).toHaveURL(/\/premium\?invoice=[^&]+$/);
    const qpay = page.getByRole('region', { name: say('premium:qpay.title') });
    await expect(
      qpay.getByText(fill(say('premium:qpay.buying_one'), { plan: planName, count: 1 })),
    ).toBeVisible();
    await expect(qpay.getByText(/17[, {2}.]?900/).first()).toBeVisible();
  });

  for (const width of WIDTHS) {
    test(`(${language}, ${width} px) a toast leaves the header's controls free`, async ({
      page,
      signIn,
      context,
    }) => {
      test.setTimeout(60_000);
      await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: baseUrl() });
      await useLanguage(page, language);
      await page.setViewportSize({ width, height: 800 });
      const owner = await signIn();
      await familyPlanWithInvitation(page.request, owner);
      await page.goto('/profile');
      await page.getByRole('button', { name: fill(say('family:invite.copy-label'), { number: 1 }) }).click();
      const toast = page.locator('[data-sonner-toast]').filter({ hasText: say('family:invite.copied') });
      await expect(toast).toBeVisible();
      await expectApart(page, toast);
    });
  }
}

/** The toast's box overlaps none of the header's visible controls (the Profile button among them). */
async function expectApart(page: Page, toast: Locator) {
  // Sonner slides a toast in: its box is judged once it has settled.
  await page.waitForTimeout(600);
  const box = await toast.boundingBox();
  expect(box).not.toBeNull();
  const header = page.locator('header.header');
  const controls = header.locator('a:visible, button:visible');
  const count = await controls.count();
  expect(count).toBeGreaterThan(0);
  const headerBox = await header.boundingBox();
  expect(box && headerBox && box.y >= headerBox.y + headerBox.height).toBe(true);
  for (let index = 0; index < count; index++) {
    const control = await controls.nth(index).boundingBox();
    if (!control || !box) continue;
    const overlaps =
      box.x < control.x + control.width &&
      control.x < box.x + box.width &&
      box.y < control.y + control.height &&
      control.y < box.y + box.height;
    expect(overlaps, `the toast covers ${await controls.nth(index).textContent()}`).toBe(false);
  }
}

/** A number's or address's messages, oldest first. */
async function messagesTo(request: APIRequestContext, to: string): Promise<string[]> {
  const response = await request.get(`${baseUrl()}/dev/outbox`, { params: { to } });
  return ((await response.json()) as { text: string }[]).map((message) => message.text).reverse();
}

/** The dates a message names, as the site writes them in that language. */
const MESSAGE_DATE: Record<Language, RegExp> = {
  en: /[A-Z][a-z]+ \d{1,2}, \d{4}/g,
  mn: /\d{4} оны \d{1,2}-р сарын \d{1,2}/g,
};

/**
 * The renewal timeline with the development clock (issue 37): a card declined at renewal, tried
 * again after 1, 3 and 5 days. Each failure message names the retry day and the last day of
 * access that the profile shows, and access does not end before that day. A listener in
 * Mongolia: the browser's time zone is Ulaanbaatar's, the messages' too. The clock moves days
 * ahead, so this runs on a server of its own.
 */
testOnOwnServer.describe('renewal timeline', () => {
  testOnOwnServer.use({ timezoneId: 'Asia/Ulaanbaatar' });
  for (const language of LANGUAGES) {
    const say = (key: string) => text(language, key);
    testOnOwnServer(
      `(${language}) the failed-renewal messages name the profile's dates, and access lasts until then`,
      async ({ page, signIn }) => {
        testOnOwnServer.setTimeout(180_000);
        await useLanguage(page, language);
        const user = await signIn();
        await nameOwner(page.request, user, language, OWNER_NAME[language]);
        const plans = await page.request.get(`${baseUrl()}/api/packages/allplans`, {
          params: { merchantId: 14 },
        });
        const premium = (
          (await plans.json()) as { MerchantCode: string; Name: { Language: string; Value: string }[] }[]
        ).find((plan) => plan.MerchantCode === 'PREMIUM_1M');
        const planName = premium?.Name.find((name) => name.Language === language)?.Value ?? '';
        await page.goto('/premium');
        await page
          .getByRole('article', { name: planName, exact: true })
          .getByRole('button', { name: say('premium:plan.get') })
          .click();
        await expect(page).toHaveURL(/\/sandbox-gateway\/payment\?token=/);
        await page.getByLabel('Card number').fill('4000 0000 0000 0341');
        await page.getByLabel('Expiry (MM/YY)').fill('12/39');
        await page.getByLabel('CVC').fill('123');
        await page.getByRole('button', { name: /^Pay / }).click();
        await expect(page).toHaveURL(/\/success\?invoiceId=/);

        const billing = await page.request.get(`${baseUrl()}/api/users/me/billing`, {
          headers: bearer(user.access_token),
        });
        const end = new Date(
          ((await billing.json()) as { renewal: { endDate: string } }).renewal.endDate,
        ).getTime();
        const failures = async () =>
          (await messagesTo(page.request, user.msisdn)).filter((message) =>
            language === 'mn' ? message.includes('татагдсангүй') : message.startsWith('We could not charge'),
          );

        const alert = page.getByRole('alert').filter({ hasText: say('billing:failed.title') });
        for (const offset of [0, 1, 3]) {
          await at(page.request, end + offset * DAY_MS + 60_000);
          const sent = await failures();
          const [retryOn, accessUntil] = [...(sent.at(-1) ?? '').matchAll(MESSAGE_DATE[language])].map(
            (m) => m[0],
          );
          await page.goto('/profile');
          await expect(alert).toContainText(fill(say('billing:failed.retry'), { date: retryOn ?? '' }));
          await expect(alert).toContainText(
            fill(say('billing:failed.access'), { date: accessUntil ?? '' }).split('.')[0] ?? '',
          );
        }
        expect(await failures()).toHaveLength(3);

        // A minute before the last retry the listener still has Premium; a minute after it, not.
        const hasPremium = async () => {
          const profile = await page.request.get(`${baseUrl()}/api/users/${user.sub}/profile`, {
            headers: bearer(user.access_token),
          });
          return ((await profile.json()) as { Subscriptions: unknown[] }).Subscriptions.length > 0;
        };
        await at(page.request, end + 5 * DAY_MS - 60_000);
        expect(await hasPremium()).toBe(true);
        await at(page.request, end + 5 * DAY_MS + 60_000);
        expect(await hasPremium()).toBe(false);
      },
    );
  }
});
