import type { Page } from '@playwright/test';
import {
  baseUrl,
  bearer,
  expect,
  latestMessage,
  mintSilentLoginToken,
  type SignedInUser,
  STORE,
  signInByApi,
  test,
  writeAuthCookie,
} from '../fixtures';

/** The session cookie's fields, or null when there is none. */
async function sessionCookie(page: Page): Promise<Record<string, string> | null> {
  const cookie = (await page.context().cookies()).find((c) => c.name === 'authData');
  return cookie ? (JSON.parse(decodeURIComponent(cookie.value)) as Record<string, string>) : null;
}

const toast = (page: Page, text: string) => page.locator('[data-sonner-toast]').filter({ hasText: text });

test.describe('silent login from /premium', () => {
  test('a minted token signs the user in with the Mongolian success toast and opens /profile', async ({
    page,
  }) => {
    const user = await signInByApi(page.request);
    const token = await mintSilentLoginToken(page.request, user.sub);
    await page.goto(`/premium?userId=${user.sub}&token=${encodeURIComponent(token)}`);
    await expect(toast(page, 'Та автоматаар амжилттай нэвтэрлээ.')).toBeVisible();
    await expect(page).toHaveURL(/\/profile$/);
    await expect(page.getByText(`+976 ${user.msisdn.slice(3)}`)).toBeVisible();
    expect((await sessionCookie(page))?.sub).toBe(user.sub);

    // The token works once.
    await page.context().clearCookies();
    await page.goto(`/premium?userId=${user.sub}&token=${encodeURIComponent(token)}`);
    await expect(toast(page, 'Дахин нэвтэрнэ үү.')).toBeVisible();
    expect(await sessionCookie(page)).toBeNull();
  });

  test('a forged token shows the Mongolian failure toast and the spec error, and signs nobody in', async ({
    page,
  }) => {
    const user = await signInByApi(page.request);
    const minted = await mintSilentLoginToken(page.request, user.sub);
    const [seconds = '', signature = ''] = minted.split('.');
    const forged = `${seconds}.${signature.slice(0, -4)}${signature.endsWith('0000') ? '1111' : '0000'}`;
    await page.goto(`/premium?userId=${user.sub}&token=${encodeURIComponent(forged)}`);
    await expect(toast(page, 'Дахин нэвтэрнэ үү.')).toBeVisible();
    await expect(
      page.getByRole('alert').filter({
        hasText:
          'Unauthorized access. The request was unacceptable, often due to missing a required parameter.',
      }),
    ).toBeVisible();
    await expect(page).toHaveURL(/\/premium\?/);
    expect(await sessionCookie(page)).toBeNull();
    await expect(page.getByRole('banner').getByRole('link', { name: 'Profile' })).toBeHidden();

    // A user id that does not exist: 404's message.
    const ghost = '00000000-0000-4000-8000-000000000000';
    const ghostToken = await mintSilentLoginToken(page.request, ghost);
    await page.goto(`/premium?userId=${ghost}&token=${encodeURIComponent(ghostToken)}`);
    await expect(
      page.getByRole('alert').filter({ hasText: 'The requested resource does not exist.' }),
    ).toBeVisible();
  });
});

test.describe('session', () => {
  test('logout clears the cookie, the shared code and the grant URL, then the visitor is sent to /', async ({
    page,
    signIn,
  }) => {
    await signIn();
    await page.goto('/profile');
    await expect(page.getByRole('region', { name: 'Profile details' })).toBeVisible();
    await page.evaluate(() => {
      sessionStorage.setItem('sharedCode', 'abc');
      localStorage.setItem('grantURL', '/api/oauth2/token');
    });
    const signedIn = await sessionCookie(page);
    expect(signedIn?.refresh_token).toBeTruthy();
    // Logout reloads the page once the server has ended the sign-in; the site's router may show
    // / before the new document loads, so the test waits for that load, not only for the URL.
    const reloaded = page.waitForEvent('load');
    await page
      .getByRole('region', { name: 'Profile details' })
      .getByRole('button', { name: 'Log out' })
      .click();
    await reloaded;
    await expect(page).toHaveURL(`${baseUrl()}/`);
    expect(await sessionCookie(page)).toBeNull();
    // The server ended the sign-in too: the refresh token the cookie held is refused.
    const reuse = await page.request.post(`${baseUrl()}/api/oauth2/token`, {
      headers: STORE,
      form: { grant_type: 'refresh_token', refresh_token: signedIn?.refresh_token ?? '' },
    });
    expect(reuse.status()).toBe(400);
    expect(
      await page.evaluate(() => [sessionStorage.getItem('sharedCode'), localStorage.getItem('grantURL')]),
    ).toEqual([null, null]);
    await expect(page.getByRole('banner').getByRole('link', { name: 'Profile' })).toBeHidden();
    await page.goto('/profile');
    await expect(page).toHaveURL(`${baseUrl()}/`);
  });

  test('profile edit: 50-character limits, a bad e-mail named, success back to /profile', async ({
    page,
    signIn,
  }) => {
    const user = await signIn();
    await page.goto('/profile');
    await page.getByRole('link', { name: 'Edit profile' }).click();
    await expect(page).toHaveURL(/\/profile-edit$/);
    const first = page.getByLabel('First name');
    const last = page.getByLabel('Last name');
    const email = page.getByLabel('Email', { exact: true });
    for (const field of [first, last, email]) await expect(field).toHaveAttribute('maxlength', '50');
    await first.fill('Б'.repeat(60));
    await expect(first).toHaveValue('Б'.repeat(50));
    await first.fill('Батбаяр');
    await last.fill('Дорж');
    await email.fill('not-an-email');
    await page.getByRole('button', { name: 'Save' }).click();
    await expect(page.getByText('Please enter a valid email address.')).toBeVisible();
    await expect(page).toHaveURL(/\/profile-edit$/);
    const address = `edit-${user.msisdn}@example.mn`;
    await email.fill(address);
    await page.getByRole('button', { name: 'Save' }).click();
    await expect(toast(page, 'Your profile has been saved.')).toBeVisible();

    // The new address counts only once the code sent to it is entered (security.md).
    const confirm = page.getByRole('region', { name: 'Confirm your new e-mail address' });
    await expect(confirm.getByText(`We sent a 4-digit code to ${address}.`)).toBeVisible();
    const { code } = await latestMessage(page.request, address);
    await confirm.getByLabel('Digit 1 of 4').fill(code ?? '');
    await confirm.getByRole('button', { name: 'Confirm address' }).click();
    await expect(page).toHaveURL(/\/profile$/);
    await expect(toast(page, 'Your e-mail address has been changed.')).toBeVisible();
    const details = page.getByRole('region', { name: 'Profile details' });
    await expect(details.getByText('Батбаяр Дорж')).toBeVisible();
    await expect(details.getByText(address)).toBeVisible();
    const profile = await page.request.get(`/api/users/${user.sub}/profile`, {
      headers: bearer((await sessionCookie(page))?.access_token ?? ''),
    });
    expect(await profile.json()).toMatchObject({
      FirstName: 'Батбаяр',
      LastName: 'Дорж',
      PrimaryEmail: address,
    });
  });

  test('an access token that expires mid-session is refreshed silently before the next call', async ({
    page,
    signIn,
  }) => {
    const user = await signIn();
    await page.goto('/profile');
    await expect(page.getByRole('region', { name: 'Profile details' })).toBeVisible();

    // Time passes: the access token in the cookie runs out (signed by the server, so only its age is wrong).
    const expired = await page.request.post('/dev/accounts/expired-access-token', {
      data: { userId: user.sub },
    });
    const { access_token: expiredToken } = (await expired.json()) as { access_token: string };
    const rejected = await page.request.get(`/api/users/${user.sub}/profile`, {
      headers: bearer(expiredToken),
    });
    expect(rejected.status()).toBe(401);
    // Watched from before the stale cookie is written: the profile's own idle-time calls (its
    // devices list) may be the first to need the token, before any click.
    const tokenCalls: string[] = [];
    const sentBearers: string[] = [];
    page.on('request', (request) => {
      if (request.url().endsWith('/api/oauth2/token')) tokenCalls.push(request.postData() ?? '');
      const authorization = request.headers().authorization;
      if (authorization) sentBearers.push(authorization);
    });
    const stale: SignedInUser = { ...user, access_token: expiredToken };
    await writeAuthCookie(page, stale);
    await page.getByRole('link', { name: 'Edit profile' }).click();
    await page.getByLabel('First name').fill('Refreshed');
    await page.getByRole('button', { name: 'Save' }).click();

    await expect(page).toHaveURL(/\/profile$/);
    await expect(page.getByRole('region', { name: 'Profile details' }).getByText('Refreshed')).toBeVisible();
    const session = await sessionCookie(page);
    expect(session?.sub).toBe(user.sub);
    expect(session?.access_token).not.toBe(expiredToken);
    expect(session?.refresh_token).not.toBe(user.refresh_token);
    // One refresh, made before any call: the expired token never went to the server.
    expect(tokenCalls).toHaveLength(1);
    expect(sentBearers.length).toBeGreaterThan(0);
    expect(sentBearers).not.toContain(`Bearer ${expiredToken}`);
    expect(new URLSearchParams(tokenCalls[0]).get('grant_type')).toBe('refresh_token');
    await expect(page.getByText('Your profile could not be saved. Please try again.')).toBeHidden();
  });

  test('a token the server no longer accepts (401) is refreshed once and the call retried', async ({
    page,
    signIn,
  }) => {
    const user = await signIn();
    // Not expired by its claims, but its signature is broken: only the server can tell.
    const [header, payload, signature = ''] = user.access_token.split('.');
    const broken = `${header}.${payload}.${signature.startsWith('A') ? 'B' : 'A'}${signature.slice(1)}`;
    await writeAuthCookie(page, { ...user, access_token: broken });
    await page.goto('/profile');
    await expect(page.getByRole('region', { name: 'Profile details' })).toBeVisible();
    await expect(page.getByText(`+976 ${user.msisdn.slice(3)}`)).toBeVisible();
    const session = await sessionCookie(page);
    expect(session?.access_token).not.toBe(broken);
    expect(session?.refresh_token).not.toBe(user.refresh_token);
  });
});
