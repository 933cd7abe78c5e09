import { readFile } from 'node:fs/promises';
import type { APIRequestContext, Page } from '@playwright/test';
import {
  baseUrl,
  expect,
  latestMessage,
  outboxMark,
  randomMsisdn,
  registerEmailUserByApi,
  type SignedInUser,
  STORE,
  signInByApi,
  test,
} from '../fixtures';
import { familyPlanWithInvitation, LANGUAGES, seriousViolations, text, useLanguage } from './a11y-helpers';

/**
 * product.md §14 on /profile, in English (at 1440 px) and Mongolian (at 360 px): change the
 * password, sign devices out, download my data, delete the account, change the phone number, and
 * leave a shared plan as a member — each checked against the API the way an attacker or a second
 * device would meet it.
 */

const WIDTH = { en: 1440, mn: 360 } as const;
const CHROME_ON_WINDOWS =
  'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/130.0 Safari/537.36';

interface Tokens {
  access_token: string;
  refresh_token: string;
}

function token(request: APIRequestContext, form: Record<string, string>, userAgent?: string) {
  return request.post(`${baseUrl()}/api/oauth2/token`, {
    headers: { ...STORE, ...(userAgent ? { 'User-Agent': userAgent } : {}) },
    form,
  });
}

async function passwordGrant(
  request: APIRequestContext,
  username: string,
  password: string,
  userAgent?: string,
) {
  return token(request, { grant_type: 'password', username, password }, userAgent);
}

async function signInWithPassword(
  request: APIRequestContext,
  email: string,
  password: string,
  userAgent?: string,
) {
  const answer = await passwordGrant(request, email, password, userAgent);
  expect(answer.ok(), await answer.text()).toBe(true);
  return (await answer.json()) as Tokens;
}

const refresh = (request: APIRequestContext, tokens: Tokens) =>
  token(request, { grant_type: 'refresh_token', refresh_token: tokens.refresh_token });

const subOf = (accessToken: string) =>
  (JSON.parse(Buffer.from(accessToken.split('.')[1] ?? '', 'base64url').toString('utf8')) as { sub: string })
    .sub;

/** Puts a session into the browser as the site stores it (tokens and ids, never the password). */
async function holdSession(page: Page, tokens: Tokens, username: string) {
  const value = encodeURIComponent(JSON.stringify({ sub: subOf(tokens.access_token), ...tokens, username }));
  await page.context().addCookies([
    {
      name: 'authData',
      value,
      url: baseUrl(),
      expires: Math.floor(Date.now() / 1000) + 3600,
      sameSite: 'Lax',
    },
  ]);
}

/** Moves the server past the 30 s between two codes to one number (security.md). */
async function pastResendWindow(request: APIRequestContext) {
  expect((await request.post(`${baseUrl()}/dev/clock`, { data: { advanceSeconds: 31 } })).ok()).toBe(true);
}

/** A code to `msisdn` and the msisdn grant with it: the grant's answer. */
async function grantByNumber(request: APIRequestContext, msisdn: string) {
  await pastResendWindow(request);
  const beforeCode = await outboxMark(request, msisdn);
  const sent = await request.get(`${baseUrl()}/api/users/requestotp`, {
    headers: STORE,
    params: { msisdn, language: 'en', otpprovider: 'sms' },
  });
  expect(sent.ok(), await sent.text()).toBe(true);
  const { code } = await latestMessage(request, msisdn, beforeCode);
  return token(request, { grant_type: 'msisdn', msisdn, code: code ?? '', skip_decryption: 'true' });
}

/** Fills the four code boxes at once, as pasting a code does. */
async function enterCode(page: Page, say: (key: string) => string, code: string) {
  await page.getByRole('dialog').getByLabel(say('accounts:email.digit').replace('{{n}}', '1')).fill(code);
}

async function openProfile(page: Page, language: (typeof LANGUAGES)[number]) {
  await page.setViewportSize({ width: WIDTH[language], height: 900 });
  await useLanguage(page, language);
  await page.goto('/profile');
  await expect(page.locator('html')).toHaveAttribute('lang', language);
  // The devices list arrives after the page and pushes the blocks below it down: a click aimed
  // at "Delete my account" before that could land on what moved there instead.
  await expect(page.getByRole('list', { name: text(language, 'accounts:devices.title') })).toBeVisible();
}

for (const language of LANGUAGES) {
  const say = (key: string) => text(language, key);

  test.describe(`account self-service (${language}, ${WIDTH[language]} px)`, () => {
    test('changing the password needs the current one; the old one then fails and other devices are out', async ({
      page,
    }) => {
      const { email, password } = await registerEmailUserByApi(page.request);
      const browser = await signInWithPassword(page.request, email, password, CHROME_ON_WINDOWS);
      const otherDevice = await signInWithPassword(page.request, email, password);
      await holdSession(page, browser, email);
      await openProfile(page, language);

      await page.getByRole('button', { name: say('accounts:password.button') }).click();
      const dialog = page.getByRole('dialog', { name: say('accounts:password.title') });
      await expect(dialog).toBeVisible();
      await expect(dialog.getByLabel(say('accounts:password.current'))).toBeFocused();
      expect(await seriousViolations(page)).toEqual([]);

      await dialog.getByLabel(say('accounts:password.current')).fill('not-my-password');
      await dialog.getByLabel(say('accounts:password.new'), { exact: true }).fill('brand-new-secret');
      await dialog.getByLabel(say('accounts:email.confirm-password')).fill('brand-new-secret');
      await dialog.getByRole('button', { name: say('accounts:password.save') }).click();
      await expect(dialog.getByText(say('accounts:password.wrong'))).toBeVisible();

      await dialog.getByLabel(say('accounts:password.current')).fill(password);
      await dialog.getByRole('button', { name: say('accounts:password.save') }).click();
      await expect(page.getByText(say('accounts:password.done'))).toBeVisible();
      await expect(dialog).toBeHidden();
      // Focus returns to the button that opened the dialog.
      await expect(page.getByRole('button', { name: say('accounts:password.button') })).toBeFocused();

      expect((await passwordGrant(page.request, email, password)).status()).toBe(400);
      expect((await passwordGrant(page.request, email, 'brand-new-secret')).ok()).toBe(true);
      expect((await refresh(page.request, otherDevice)).status()).toBe(400);
      // This browser stays signed in.
      await page.reload();
      await expect(page.getByRole('heading', { name: say('accounts:devices.title') })).toBeVisible();
    });

    test("signing a device out ends that device's refresh token; so does signing out all others", async ({
      page,
    }) => {
      const { email, password } = await registerEmailUserByApi(page.request);
      const browser = await signInWithPassword(page.request, email, password, CHROME_ON_WINDOWS);
      const phone = await signInWithPassword(page.request, email, password, 'Tunes-Phone/1.0');
      await holdSession(page, browser, email);
      await openProfile(page, language);

      const devices = page.getByRole('list', { name: say('accounts:devices.title') });
      await expect(devices.getByRole('listitem')).toHaveCount(2);
      const current = devices.getByRole('listitem').filter({ hasText: say('accounts:devices.this-device') });
      await expect(current).toContainText('Chrome on Windows');
      await expect(current.getByRole('button')).toHaveCount(0);

      await devices
        .getByRole('listitem')
        .filter({ hasNotText: say('accounts:devices.this-device') })
        .getByRole('button')
        .click();
      await expect(page.getByText(say('accounts:devices.signed-out'))).toBeVisible();
      await expect(devices.getByRole('listitem')).toHaveCount(1);
      await expect(page.getByText(say('accounts:devices.only-this'))).toBeVisible();
      expect((await refresh(page.request, phone)).status()).toBe(400);

      const tablet = await signInWithPassword(page.request, email, password);
      const laptop = await signInWithPassword(page.request, email, password);
      await page.reload();
      await expect(devices.getByRole('listitem')).toHaveCount(3);
      await page.getByRole('button', { name: say('accounts:devices.sign-out-others') }).click();
      await expect(page.getByText(say('accounts:devices.signed-out-others'))).toBeVisible();
      await expect(devices.getByRole('listitem')).toHaveCount(1);
      expect((await refresh(page.request, tablet)).status()).toBe(400);
      expect((await refresh(page.request, laptop)).status()).toBe(400);
    });

    test("download my data holds the listener's data and nobody else's", async ({ page, signIn }) => {
      const stranger = await signInByApi(page.request);
      const me = await signIn();
      await openProfile(page, language);

      const downloading = page.waitForEvent('download');
      await page.getByRole('button', { name: say('accounts:data.download') }).click();
      const download = await downloading;
      expect(download.suggestedFilename()).toMatch(/^tunes-my-data-\d{4}-\d{2}-\d{2}\.json$/);
      const file = await readFile((await download.path()) ?? '', 'utf8');
      const data = JSON.parse(file) as {
        account: { id: string };
        profile: { PhoneNumber: string };
        sessions: unknown[];
      };
      expect(data.account.id).toBe(me.sub);
      expect(data.profile.PhoneNumber).toBe(me.msisdn);
      expect(data.sessions.length).toBeGreaterThan(0);
      expect(file).not.toContain(stranger.msisdn);
      expect(file).not.toContain(stranger.sub);
      await expect(page.getByText(say('accounts:data.done'))).toBeVisible();
    });

    test('deleting the account needs a fresh code and a clear yes; then it cannot sign in and the number registers anew', async ({
      page,
      signIn,
    }) => {
      const me = await signIn();
      await openProfile(page, language);
      await page.getByRole('button', { name: say('accounts:delete.button') }).click();
      const dialog = page.getByRole('dialog', { name: say('accounts:delete.dialog-title') });
      await expect(dialog.getByText(say('accounts:delete.warning'))).toBeVisible();
      expect(await seriousViolations(page)).toEqual([]);

      await pastResendWindow(page.request);
      const beforeCode = await outboxMark(page.request, me.msisdn);
      await dialog.getByRole('button', { name: say('accounts:delete.send-code') }).click();
      const { code } = await latestMessage(page.request, me.msisdn, beforeCode);
      await dialog.getByLabel(say('accounts:delete.code'), { exact: true }).fill(code ?? '');
      const confirm = dialog.getByRole('button', { name: say('accounts:delete.confirm') });
      await expect(confirm).toBeDisabled(); // not until the listener says they understand
      await dialog.getByLabel(say('accounts:delete.understand')).check();
      await confirm.click();

      await expect(page.getByText(say('accounts:delete.done'))).toBeVisible();
      await expect(page).toHaveURL(`${baseUrl()}/`);
      expect(await page.context().cookies()).not.toContainEqual(
        expect.objectContaining({ name: 'authData' }),
      );
      expect((await refresh(page.request, me)).status()).toBe(400);

      // The number no longer signs in to the deleted account ("604": not registered) …
      const again = await grantByNumber(page.request, me.msisdn);
      expect(((await again.json()) as { error?: string }).error).toBe('604');
      // … and registers as a new one.
      await pastResendWindow(page.request);
      const reborn = await signInByApi(page.request, { msisdn: me.msisdn });
      expect(reborn.sub).not.toBe(me.sub);
    });

    test('changing the phone number takes effect with the code sent to the new one; the old one is told', async ({
      page,
      signIn,
    }) => {
      const me = await signIn();
      const newNumber = randomMsisdn();
      await openProfile(page, language);

      await page.getByRole('button', { name: say('accounts:change.phone-button') }).click();
      const dialog = page.getByRole('dialog', { name: say('accounts:change.phone-title') });
      await dialog.getByLabel(say('accounts:change.new-phone')).fill('123');
      await dialog.getByRole('button', { name: say('accounts:change.send-code') }).click();
      await expect(dialog.getByText(say('common:validation.cant-authenticate-mobile'))).toBeVisible();
      await dialog.getByLabel(say('accounts:change.new-phone')).fill(newNumber.slice(3));
      await dialog.getByRole('button', { name: say('accounts:change.send-code') }).click();
      const sentText = say('accounts:change.code-sent-phone').replace(
        '{{target}}',
        `+976 ${newNumber.slice(3)}`,
      );
      await expect(dialog.getByText(sentText)).toBeVisible();
      expect(await seriousViolations(page)).toEqual([]);

      // Until the code is entered the number is unchanged.
      const details = page.getByRole('region', { name: say('accounts:profile.details') });
      await expect(details).toContainText(`+976 ${me.msisdn.slice(3)}`);
      const { code } = await latestMessage(page.request, newNumber);
      await enterCode(page, say, code ?? '');
      const beforeNotice = await outboxMark(page.request, me.msisdn);
      await dialog.getByRole('button', { name: say('accounts:change.confirm') }).click();
      await expect(page.getByText(say('accounts:change.phone-changed'))).toBeVisible();
      await expect(dialog).toBeHidden();
      await expect(details).toContainText(`+976 ${newNumber.slice(3)}`);

      const notice = await latestMessage(page.request, me.msisdn, beforeNotice);
      expect(notice.code).toBeNull();
      expect(notice.text).toContain(newNumber.slice(-4));
      const byNewNumber = await grantByNumber(page.request, newNumber);
      expect(byNewNumber.ok()).toBe(true);
      expect(subOf(((await byNewNumber.json()) as Tokens).access_token)).toBe(me.sub);
      const byOldNumber = await grantByNumber(page.request, me.msisdn);
      expect(((await byOldNumber.json()) as { error?: string }).error).toBe('604');
    });

    test('a member sees who pays, has no voucher box, and may leave the plan; the owner is told', async ({
      page,
      signIn,
    }) => {
      const owner = await signInByApi(page.request);
      const code = await familyPlanWithInvitation(page.request, owner);
      const member: SignedInUser = await signIn();
      const accepted = await page.request.post(`${baseUrl()}/api/subscription/invitations/${code}`, {
        headers: { ...STORE, Authorization: `Bearer ${member.access_token}` },
      });
      expect(accepted.ok()).toBe(true);
      await openProfile(page, language);

      const status = page.getByRole('region', { name: say('premium:status.title') });
      await expect(status.getByText(say('premium:status.paid-by-owner'), { exact: true })).toBeVisible();
      await expect(status.getByText(say('premium:status.auto-renew'), { exact: true })).toHaveCount(0);
      await expect(page.getByRole('heading', { name: say('vouchers:title') })).toHaveCount(0);

      const plan = page.getByRole('region', { name: say('family:leave.title') });
      const leaveButton = plan.getByRole('button', { name: say('family:leave.button') });
      const dialog = page.getByRole('dialog', { name: say('family:leave.dialog-title') });
      // Escape closes the dialog and gives focus back; nothing has changed.
      await leaveButton.click();
      await expect(dialog).toBeVisible();
      await page.keyboard.press('Escape');
      await expect(dialog).toBeHidden();
      await expect(leaveButton).toBeFocused();
      await page.keyboard.press('Enter');
      await expect(dialog).toBeVisible();
      expect(await seriousViolations(page)).toEqual([]);
      const beforeNotice = await outboxMark(page.request, owner.msisdn);
      await dialog.getByRole('button', { name: say('family:leave.confirm') }).click();

      await expect(page.getByText(say('family:leave.done'))).toBeVisible();
      await expect(plan).toHaveCount(0);
      await expect(status.getByText(say('premium:status.inactive'), { exact: true })).toBeVisible();
      await expect(page.getByRole('heading', { name: say('vouchers:title') })).toBeVisible();

      expect((await latestMessage(page.request, owner.msisdn, beforeNotice)).text).toMatch(
        /left your shared Tunes plan/,
      );
      const auth = { ...STORE, Authorization: `Bearer ${owner.access_token}` };
      const profile = await page.request.get(`${baseUrl()}/api/users/${owner.sub}/profile`, {
        headers: auth,
      });
      const subscriptionId = ((await profile.json()) as { Subscriptions: { SubscriptionId: string }[] })
        .Subscriptions[0]?.SubscriptionId;
      const codes = await page.request.get(
        `${baseUrl()}/api/subscription/${subscriptionId}/invitation-codes/`,
        {
          headers: auth,
        },
      );
      expect(((await codes.json()) as { Remaining: number }).Remaining).toBe(3);
    });
  });
}
