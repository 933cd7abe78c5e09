import type { APIRequestContext, Browser, Page } from '@playwright/test';
import {
  baseUrl,
  bearer,
  expect,
  latestMessage,
  randomMsisdn,
  type SignedInUser,
  signIn,
  test,
} from '../fixtures';

const JOINED = 'You are now part of the family plan!';
const INVALID = 'Something went wrong. This invite may have already been used or expired.';
const ALREADY_SUBSCRIBED =
  'Sorry, you are already on an active subscription. Cancel your subscription to join this plan.';

/** Vouchers through the dev mirror of `vouchers:create` (the CLI cannot open the running PGlite). */
async function voucherFor(request: APIRequestContext, plan: string): Promise<string> {
  const response = await request.post(`${baseUrl()}/dev/vouchers`, {
    data: { package: plan, days: 30, count: 1 },
  });
  expect(response.status()).toBe(201);
  return ((await response.json()) as { codes: string[] }).codes[0] ?? '';
}

async function setFirstName(request: APIRequestContext, user: SignedInUser, name: string) {
  const response = await request.patch(`${baseUrl()}/api/users/me/details`, {
    headers: bearer(user.access_token),
    data: { FirstName: name },
  });
  expect(response.ok()).toBe(true);
}

/** A fresh browser context (own cookies and sessionStorage) signed in as a new user. */
async function person(browser: Browser, firstName?: string) {
  const context = await browser.newContext();
  const page = await context.newPage();
  const user = await signIn(page);
  if (firstName) await setFirstName(page.request, user, firstName);
  return { page, user, close: () => context.close() };
}

/** The owner redeems a plan voucher in the voucher box; the owner view appears. */
async function becomeOwner(page: Page, plan: string) {
  const code = await voucherFor(page.request, plan);
  await page.goto('/profile');
  await page.getByLabel('Voucher code').fill(code);
  await page.getByRole('button', { name: 'Redeem' }).click();
  await expect(page.getByText('Voucher successfully activated')).toBeVisible();
}

const inviteButton = (page: Page) => page.getByRole('button', { name: 'Invite', exact: true });
const linkFields = (page: Page) => page.getByRole('textbox', { name: /^Invitation link \d+$/ });

async function invite(page: Page, expectedLinks: number): Promise<string> {
  await inviteButton(page).click();
  await expect(linkFields(page)).toHaveCount(expectedLinks);
  return linkFields(page)
    .nth(expectedLinks - 1)
    .inputValue();
}

async function accept(page: Page, link: string, expected: string) {
  await page.goto(link);
  await page.getByRole('button', { name: 'Accept invite' }).click();
  await expect(page.getByText(expected)).toBeVisible();
}

test.describe('family plan', () => {
  test('a Family owner invites three people, manages members, and bad links show the right messages', async ({
    page,
    browser,
  }) => {
    test.setTimeout(180_000);
    await page.context().grantPermissions(['clipboard-read', 'clipboard-write']);
    const owner = await signIn(page);
    await setFirstName(page.request, owner, 'Bolor');
    await becomeOwner(page, 'PREMIUM_FAMILY_1M');

    const plan = page.getByRole('region', { name: 'Welcome, Bolor!' });
    await expect(plan).toBeVisible();
    await expect(plan.getByText('up to 3 people besides you')).toBeVisible();
    await expect(plan.getByText('You have 3 invitation chances remaining.')).toBeVisible();
    await expect(plan.getByText('No one has joined your plan yet.')).toBeVisible();

    const links = [await invite(page, 1), await invite(page, 2), await invite(page, 3)];
    for (const link of links) expect(link).toMatch(new RegExp(`^${baseUrl()}/invite\\?code=[\\w-]{22}$`));
    expect(new Set(links).size).toBe(3);
    await expect(inviteButton(page)).toHaveCount(0);
    await expect(plan.getByText('You have 0 invitation chances remaining.')).toBeVisible();

    await page.getByRole('button', { name: 'Copy invitation link 1' }).click();
    await expect(page.getByText('Link copied successfully!')).toBeVisible();
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(links[0]);

    // Two signed-in people accept.
    const saraa = await person(browser, 'Saraa');
    await accept(saraa.page, links[0] ?? '', JOINED);
    expect(await saraa.page.evaluate(() => sessionStorage.getItem('sharedCode'))).toBeNull();
    const tuya = await person(browser, 'Tuya');
    await accept(tuya.page, links[1] ?? '', JOINED);

    // The third arrives as a visitor and signs up through the link: the code waits in
    // sessionStorage while the login/register modal runs.
    const visitorContext = await browser.newContext();
    const visitor = await visitorContext.newPage();
    await visitor.goto(links[2] ?? '');
    await expect(visitor.getByText('Log in or create an account to accept the invitation.')).toBeVisible();
    expect(await visitor.evaluate(() => sessionStorage.getItem('sharedCode'))).toBe(
      new URL(links[2] ?? '').searchParams.get('code'),
    );
    const newcomer = randomMsisdn();
    const dialog = visitor.getByRole('dialog', { name: 'Login or register your account' });
    await dialog.getByLabel('Phone number').fill(newcomer.slice(3));
    await dialog.getByRole('button', { name: 'Verify' }).click();
    await expect(dialog.getByLabel('Code')).toBeVisible();
    const { code } = await latestMessage(visitor.request, newcomer);
    await dialog.getByLabel('Code').fill(code ?? '');
    await dialog.getByRole('button', { name: 'Continue' }).click();
    await expect(dialog).toBeHidden();
    await visitor.getByRole('button', { name: 'Accept invite' }).click();
    await expect(visitor.getByText(JOINED)).toBeVisible();
    expect(await visitor.evaluate(() => sessionStorage.getItem('sharedCode'))).toBeNull();

    // The owner sees all three, each with first name and phone, and no Invite button.
    await page.reload();
    const members = page.getByRole('list', { name: 'People on your plan' }).getByRole('listitem');
    await expect(members).toHaveCount(3);
    for (const [name, msisdn] of [
      ['Saraa', saraa.user.msisdn],
      ['Tuya', tuya.user.msisdn],
      ['Member', newcomer],
    ] as const) {
      const row = members.filter({ hasText: `+976 ${msisdn.slice(3)}` });
      await expect(row).toContainText(name);
    }
    await expect(inviteButton(page)).toHaveCount(0);
    await expect(linkFields(page)).toHaveCount(0);

    // A member sees the shared plan as their subscription.
    const memberProfile = await saraa.page.request.get(`${baseUrl()}/api/users/${saraa.user.sub}/profile`, {
      headers: bearer(saraa.user.access_token),
    });
    expect((await memberProfile.json()).Subscriptions[0]).toMatchObject({
      OwnerId: owner.sub,
      Role: 'member',
    });

    // Removing one asks first in the site's own dialog (not the browser's confirm box): Keep
    // (or Escape) changes nothing; Remove frees a seat and the Invite button is back.
    let browserDialog = false;
    page.on('dialog', (dialog) => {
      browserDialog = true;
      void dialog.dismiss();
    });
    const removeTuya = page.getByRole('button', { name: 'Remove Tuya from plan' });
    await removeTuya.click();
    const confirm = page.getByRole('alertdialog', { name: 'Remove Tuya from your plan?' });
    await expect(confirm).toBeVisible();
    await expect(confirm).toContainText('Tuya loses Premium at once');
    await expect(confirm.getByRole('button', { name: 'Keep' })).toBeFocused();
    await confirm.getByRole('button', { name: 'Keep' }).click();
    await expect(confirm).toBeHidden();
    await expect(members).toHaveCount(3);
    await removeTuya.click();
    await page.keyboard.press('Escape');
    await expect(confirm).toBeHidden();
    await expect(members).toHaveCount(3);
    await removeTuya.click();
    await confirm.getByRole('button', { name: 'Remove', exact: true }).click();
    await expect(confirm).toBeHidden();
    await expect(members).toHaveCount(2);
    expect(browserDialog).toBe(false);
    await expect(plan.getByText('You have 1 invitation chance remaining.')).toBeVisible();
    const fresh = await invite(page, 1);
    await expect(inviteButton(page)).toHaveCount(0);

    // A reused link, an expired link, and a subscriber.
    const late = await person(browser);
    await accept(late.page, links[0] ?? '', INVALID);
    const expiring = new URL(fresh).searchParams.get('code') ?? '';
    expect((await page.request.post(`${baseUrl()}/dev/invitation-codes/${expiring}/expire`)).status()).toBe(
      204,
    );
    await accept(late.page, fresh, INVALID);
    await page.reload();
    await expect(inviteButton(page)).toBeVisible();
    const another = await invite(page, 1);
    const subscriber = await person(browser);
    await becomeOwner(subscriber.page, 'PREMIUM_1M');
    await accept(subscriber.page, another, ALREADY_SUBSCRIBED);
    // The refused user's code is still good for someone else.
    await accept(late.page, another, JOINED);

    for (const p of [saraa, tuya, late, subscriber]) await p.close();
    await visitorContext.close();
  });

  test('a Duo owner can add exactly one member', async ({ page, browser }) => {
    const owner = await signIn(page);
    await setFirstName(page.request, owner, 'Dulmaa');
    await becomeOwner(page, 'PREMIUM_DUO_1M');
    const plan = page.getByRole('region', { name: 'Welcome, Dulmaa!' });
    await expect(plan.getByText('Manage your Duo plan')).toBeVisible();
    await expect(plan.getByText('You have 1 invitation chance remaining.')).toBeVisible();
    const link = await invite(page, 1);
    await expect(inviteButton(page)).toHaveCount(0);

    const partner = await person(browser, 'Ganaa');
    await accept(partner.page, link, JOINED);
    await page.reload();
    await expect(page.getByRole('list', { name: 'People on your plan' }).getByRole('listitem')).toHaveCount(
      1,
    );
    await expect(inviteButton(page)).toHaveCount(0);
    await expect(plan.getByText('You have 0 invitation chances remaining.')).toBeVisible();
    await partner.close();
  });

  test('reloading /invite after accepting does not offer the spent invitation again', async ({
    page,
    browser,
  }) => {
    await signIn(page);
    await becomeOwner(page, 'PREMIUM_FAMILY_1M');
    const link = await invite(page, 1);
    const member = await person(browser);
    await accept(member.page, link, JOINED);
    await member.page.reload();
    await expect(member.page.getByText(/You are a member of a shared Premium plan/)).toBeVisible();
    await expect(member.page.getByRole('button', { name: 'Accept invite' })).toHaveCount(0);
    // Nor does the profile keep a join block for it.
    await member.page.goto('/profile');
    await expect(member.page.getByRole('region', { name: 'Your shared plan' })).toBeVisible();
    await expect(member.page.getByRole('button', { name: 'Accept invite' })).toHaveCount(0);
    await expect(member.page.getByRole('heading', { name: 'Join Premium' })).toHaveCount(0);
    await member.close();
  });

  test('/invite in Mongolian offers the accept button', async ({ page }) => {
    await signIn(page);
    await page.goto('/invite?code=AAAAAAAAAAAAAAAAAAAAAA');
    await page.getByRole('button', { name: 'Монгол' }).click();
    await page.getByRole('button', { name: 'Урилгыг хүлээн авах' }).click();
    await expect(
      page.getByText(
        'Алдаа гарлаа. Энэ урилга аль хэдийн ашиглагдсан эсвэл хугацаа нь дууссан байж магадгүй.',
      ),
    ).toBeVisible();
  });
});
