import type { APIRequestContext, Page } from '@playwright/test';
import { baseUrl, bearer, expect, latestMessage, outboxMark, randomMsisdn, STORE } from '../fixtures';
import { testOnOwnServer } from '../own-server';
import { LANGUAGES, text } from './a11y-helpers';
import { at } from './clock-helpers';

/**
 * Issue 37 (defect A): the listener's language is the account's. A listener who signs up with
 * the site in a language gets every message in it — the sign-in code, the renewal reminder, the
 * renewed notice (read through the outbox, GET /dev/outbox) — and changes it on /profile. The
 * clock moves a month, so these tests run on a server of their own, one after another (0014).
 */
const test = testOnOwnServer;
test.describe.configure({ mode: 'default' });

type Language = (typeof LANGUAGES)[number];

const DAY_MS = 86_400_000;
const PAID_CARD = '4242 4242 4242 4242';

/** The first words of each message, in each language (apps/server/src/modules/*\/messages.ts). */
const MESSAGES: Record<Language, { code: RegExp; reminder: RegExp; renewed: RegExp }> = {
  en: {
    code: /^Your Tunes code is \d{4}\./,
    reminder: /^Your Premium renews on .+\. We will charge .+ to your saved card/,
    renewed: /^Your Premium renewed: .+ paid\./,
  },
  mn: {
    code: /^Tunes баталгаажуулах код: \d{4}\./,
    reminder: /^Таны Премиум багц .+-нд сунгагдана\. Хадгалсан картаас/,
    renewed: /^Таны Премиум багц сунгагдлаа: /,
  },
};

/** Asks for a sign-in code through the API naming `language`, past the 30 s between two codes. */
async function codeMessage(request: APIRequestContext, msisdn: string, language: Language) {
  expect((await request.post(`${baseUrl()}/dev/clock`, { data: { advanceSeconds: 31 } })).ok()).toBe(true);
  const before = await outboxMark(request, msisdn);
  const sent = await request.get(`${baseUrl()}/api/users/requestotp`, {
    headers: STORE,
    params: { msisdn, language, otpprovider: 'sms' },
  });
  expect(sent.ok(), await sent.text()).toBe(true);
  return latestMessage(request, msisdn, before);
}

/** The access token and user id the site stored after signing in. */
async function storedSession(page: Page): Promise<{ sub: string; access_token: string }> {
  const cookie = (await page.context().cookies()).find((c) => c.name === 'authData');
  return JSON.parse(decodeURIComponent(cookie?.value ?? '{}'));
}

async function accountLanguage(request: APIRequestContext, session: { sub: string; access_token: string }) {
  const profile = await request.get(`${baseUrl()}/api/users/${session.sub}/profile`, {
    headers: bearer(session.access_token),
  });
  expect(profile.ok()).toBe(true);
  return ((await profile.json()) as { Language: string }).Language;
}

for (const language of LANGUAGES) {
  const other: Language = language === 'en' ? 'mn' : 'en';
  const say = (key: string) => text(language, key);

  test(`(${language}) a listener who signs up with the site in ${text(language, `common:language.${language}`)} gets the code, the renewal reminder and the renewed notice in it, and changes it on /profile`, async ({
    page,
  }) => {
    test.setTimeout(120_000);
    const msisdn = randomMsisdn();

    // A visitor picks the site's language on the bar, then signs up by phone.
    await page.goto('/');
    await page.getByRole('button', { name: say(`common:language.${language}`), exact: true }).click();
    await expect(page.locator('html')).toHaveAttribute('lang', language);
    await page
      .getByRole('link', { name: say('common:nav.login'), exact: true })
      .first()
      .click();
    const dialog = page.getByRole('dialog', { name: say('accounts:modal.title') });
    await dialog.getByLabel(say('accounts:mobile.phone')).fill(msisdn.slice(3));
    await dialog.getByRole('button', { name: say('accounts:mobile.verify') }).click();
    const first = await latestMessage(page.request, msisdn);
    expect(first.text).toMatch(MESSAGES[language].code);
    await dialog.getByLabel(say('accounts:mobile.code'), { exact: true }).fill(first.code ?? '');
    await dialog.getByRole('button', { name: say('accounts:mobile.continue') }).click();
    await expect(page).toHaveURL(/\/profile$/);
    const session = await storedSession(page);
    expect(await accountLanguage(page.request, session)).toBe(language);

    // The next sign-in code comes in the account's language, whatever language the call names.
    expect((await codeMessage(page.request, msisdn, other)).text).toMatch(MESSAGES[language].code);

    // Premium with a saved card: the reminder 3 days before the end, then the renewal itself.
    const checkout = await page.request.post(`${baseUrl()}/api/payments/checkout`, {
      headers: bearer(session.access_token),
      data: { MerchantCode: 'PREMIUM_1M', saveCard: true },
    });
    expect(checkout.ok(), await checkout.text()).toBe(true);
    await page.goto(((await checkout.json()) as { url: string }).url);
    await page.getByLabel('Card number').fill(PAID_CARD);
    await page.getByLabel('Expiry (MM/YY)').fill('12/39');
    await page.getByLabel('CVC').fill('123');
    await page.getByRole('button', { name: /^Pay / }).click();
    await expect(page).toHaveURL(/\/success\?invoiceId=/);
    const billing = await page.request.get(`${baseUrl()}/api/users/me/billing`, {
      headers: bearer(session.access_token),
    });
    const end = new Date(
      ((await billing.json()) as { renewal: { nextChargeAt: string } }).renewal.nextChargeAt,
    ).getTime();

    const beforeReminder = await outboxMark(page.request, msisdn);
    await at(page.request, end - 3 * DAY_MS + 60_000);
    expect((await latestMessage(page.request, msisdn, beforeReminder)).text).toMatch(
      MESSAGES[language].reminder,
    );
    const beforeRenewed = await outboxMark(page.request, msisdn);
    await at(page.request, end + 60_000);
    expect((await latestMessage(page.request, msisdn, beforeRenewed)).text).toMatch(
      MESSAGES[language].renewed,
    );

    // On /profile the account's language is shown and changed; the site follows, and so do messages.
    await page.goto('/profile');
    const section = (shown: Language) =>
      page.getByRole('region', { name: text(shown, 'accounts:language.title'), exact: true });
    const choice = (shown: Language, of: Language) =>
      section(shown).getByRole('radio', { name: text(shown, `common:language.${of}`), exact: true });
    await expect(choice(language, language)).toBeChecked();
    await choice(language, other).check();
    await section(language)
      .getByRole('button', { name: say('accounts:language.save') })
      .click();
    await expect(page.getByText(text(other, 'accounts:language.saved'))).toBeVisible();
    await expect(page.locator('html')).toHaveAttribute('lang', other);
    await expect(choice(other, other)).toBeChecked();
    expect(await accountLanguage(page.request, session)).toBe(other);
    expect((await codeMessage(page.request, msisdn, language)).text).toMatch(MESSAGES[other].code);

    // Switching on the bar while signed in tells the account as well.
    await page.getByRole('button', { name: text(other, `common:language.${language}`), exact: true }).click();
    await expect(page.locator('html')).toHaveAttribute('lang', language);
    await expect(choice(language, language)).toBeChecked();
    await expect.poll(() => accountLanguage(page.request, session)).toBe(language);
  });
}
