import type { Page } from '@playwright/test';
import {
  baseUrl,
  bearer,
  expect,
  holdAnswers,
  latestMessage,
  outboxMark,
  randomEmail,
  registerEmailUserByApi,
  signInByApi,
  test,
} from '../fixtures';
import { text, useLanguage } from './a11y-helpers';

/** The login modal with the E-mail method chosen (product.md §2). */
async function openEmailLogin(page: Page) {
  await page.goto('/login');
  const dialog = page.getByRole('dialog', { name: 'Login or register your account' });
  await dialog.getByRole('button', { name: 'E-mail' }).click();
  await expect(dialog.getByRole('button', { name: 'E-mail' })).toHaveAttribute('aria-pressed', 'true');
  return dialog;
}

/** The session cookie's fields; the spec keeps tokens and ids there, never the password. */
async function sessionCookie(page: Page): Promise<Record<string, unknown> | null> {
  const cookie = (await page.context().cookies()).find((c) => c.name === 'authData');
  return cookie ? (JSON.parse(decodeURIComponent(cookie.value)) as Record<string, unknown>) : null;
}

test.describe('e-mail accounts', () => {
  test('registration: code in 4 single-digit boxes, finish account, automatic login to /profile', async ({
    page,
  }) => {
    const email = randomEmail('register');
    const dialog = await openEmailLogin(page);
    await dialog.getByRole('button', { name: 'Create an account' }).click();
    await expect(dialog.getByRole('heading', { name: 'Create an account' })).toBeVisible();
    await dialog.getByLabel('Email address').fill('not an address');
    await dialog.getByRole('button', { name: 'Send code' }).click();
    await expect(dialog.getByText('Please enter a valid email address.')).toBeVisible();
    await dialog.getByLabel('Email address').fill(email);
    await dialog.getByRole('button', { name: 'Send code' }).click();

    await expect(dialog.getByRole('heading', { name: 'Verify your e-mail' })).toBeVisible();
    await expect(dialog.getByText(`Enter the 4-digit code we sent to ${email}.`)).toBeVisible();
    const message = await latestMessage(page.request, email);
    expect(message).toMatchObject({ channel: 'email', to: email });
    const code = message.code ?? '';
    expect(code).toMatch(/^\d{4}$/);

    const box = (n: number) => dialog.getByLabel(`Digit ${n} of 4`);
    await box(1).click();
    await page.keyboard.type(code[0] ?? '');
    await expect(box(2)).toBeFocused();
    await page.keyboard.type(code[1] ?? '');
    await expect(box(3)).toBeFocused();
    // Backspace on an empty box moves back; typing the same digit again moves on.
    await page.keyboard.press('Backspace');
    await expect(box(2)).toBeFocused();
    await expect(box(2)).toHaveValue(code[1] ?? '');
    await page.keyboard.type(code[1] ?? '');
    await expect(box(3)).toBeFocused();
    await expect(box(2)).toHaveValue(code[1] ?? '');
    // Back again, and a second Backspace clears the box.
    await page.keyboard.press('Backspace');
    await expect(box(2)).toBeFocused();
    await page.keyboard.press('Backspace');
    await expect(box(2)).toHaveValue('');
    await expect(box(2)).toBeFocused();
    for (const digit of code.slice(1)) await page.keyboard.type(digit);
    for (const [index, digit] of [...code].entries()) await expect(box(index + 1)).toHaveValue(digit);
    // Enter is blocked in the auth modals: only the button verifies.
    await page.keyboard.press('Enter');
    await expect(dialog.getByRole('heading', { name: 'Verify your e-mail' })).toBeVisible();
    await dialog.getByRole('button', { name: 'Verify' }).click();

    await expect(dialog.getByRole('heading', { name: 'Finish creating your account' })).toBeVisible();
    await expect(dialog.getByLabel('Email address')).toHaveValue(email);
    const country = dialog.getByLabel('Country');
    await expect(country).toHaveValue('MN');
    await expect(country.getByRole('option')).toHaveText(['Mongolia', 'Rest of World']);
    const create = dialog.getByRole('button', { name: 'Create account' });
    await create.click();
    await expect(dialog.getByText('Password and confirm password are required.')).toBeVisible();
    await dialog.getByLabel('Password', { exact: true }).fill('short');
    await dialog.getByLabel('Confirm password').fill('short');
    await create.click();
    await expect(dialog.getByText('Password must be at least 6 characters.')).toBeVisible();
    await dialog.getByLabel('Password', { exact: true }).fill('secret-123');
    await dialog.getByLabel('Confirm password').fill('secret-124');
    await create.click();
    await expect(dialog.getByText('Passwords do not match.')).toBeVisible();
    await dialog.getByLabel('Confirm password').fill('secret-123');
    await create.click();

    await expect(page).toHaveURL(/\/profile$/);
    await expect(page.getByRole('region', { name: 'Profile details' }).getByText(email)).toBeVisible();
    const session = await sessionCookie(page);
    expect(session).toMatchObject({ username: email, country: 'MN' });
    expect(JSON.stringify(session)).not.toContain('secret-123');
  });

  test('a new code typed before the resend is answered is kept, and verifies', async ({ page }) => {
    const email = randomEmail('resend');
    await page.clock.install();
    const dialog = await openEmailLogin(page);
    await dialog.getByRole('button', { name: 'Create an account' }).click();
    await dialog.getByLabel('Email address').fill(email);
    await dialog.getByRole('button', { name: 'Send code' }).click();
    const first = await latestMessage(page.request, email);
    await dialog.getByLabel('Digit 1 of 4').fill(first.code === '0000' ? '1111' : '0000');

    // Past the resend countdown, in the page and on the server.
    await page.clock.fastForward(61_000);
    expect((await page.request.post('/dev/clock', { data: { advanceSeconds: 61 } })).ok()).toBe(true);
    // The mail can come before the answer reaches the page: held here, so the new code is typed
    // first, and the answer must not empty the boxes.
    const answer = await holdAnswers(page, '**/api/users/requestotp?*');
    const beforeResend = await outboxMark(page.request, email);
    await dialog.getByRole('button', { name: 'Resend code' }).click();
    const fresh = await latestMessage(page.request, email, beforeResend);
    await dialog.getByLabel('Digit 1 of 4').fill(fresh.code ?? '');
    answer();
    await dialog.getByRole('button', { name: 'Verify' }).click();
    await expect(dialog.getByRole('heading', { name: 'Finish creating your account' })).toBeVisible();
  });

  test('an address that already belongs to an account gets the spec message at verification', async ({
    page,
  }) => {
    // A mobile user puts the address on their profile (confirmed by its code), so it is in use.
    const owner = await signInByApi(page.request);
    const email = randomEmail('taken');
    const auth = bearer(owner.access_token);
    const patched = await page.request.patch('/api/users/me/details', {
      headers: auth,
      data: { Email: email },
    });
    expect(patched.ok()).toBe(true);
    const change = await latestMessage(page.request, email);
    const confirmed = await page.request.post('/api/users/me/email/confirm', {
      headers: auth,
      data: { Otp: change.code },
    });
    expect(confirmed.ok()).toBe(true);
    // A second code to the same address is refused for 30 s; the test moves the clock instead.
    expect((await page.request.post('/dev/clock', { data: { advanceSeconds: 31 } })).ok()).toBe(true);
    const beforeCode = await outboxMark(page.request, email);

    const dialog = await openEmailLogin(page);
    await dialog.getByRole('button', { name: 'Create an account' }).click();
    await dialog.getByLabel('Email address').fill(email);
    await dialog.getByRole('button', { name: 'Send code' }).click();
    const { code } = await latestMessage(page.request, email, beforeCode);
    await dialog.getByLabel('Digit 1 of 4').fill(code ?? '');
    await dialog.getByRole('button', { name: 'Verify' }).click();
    const inUse =
      'This email address is already associated with another account. Login with the account or use a different email address.';
    await expect(dialog.getByText(inUse)).toBeVisible();
    await expect(page.locator('[data-sonner-toast]').filter({ hasText: inUse })).toBeVisible();
    await expect(dialog.getByRole('heading', { name: 'Verify your e-mail' })).toBeVisible();
  });

  test('login with a wrong password shows the message, then the right one signs in', async ({ page }) => {
    const user = await registerEmailUserByApi(page.request);
    const grants: string[] = [];
    page.on('request', (request) => {
      if (request.url().endsWith('/api/oauth2/token')) grants.push(request.postData() ?? '');
    });
    const dialog = await openEmailLogin(page);
    const login = dialog.getByRole('button', { name: 'Login', exact: true });
    await login.click();
    await expect(dialog.getByText('Please enter your email address.')).toBeVisible();
    await expect(dialog.getByText('Password is required.')).toBeVisible();

    await dialog.getByLabel('Email address').fill(user.email);
    await dialog.getByLabel('Password').fill('wrong-password');
    await login.click();
    await expect(dialog.getByText('Login failed. Please check your details and try again.')).toBeVisible();
    await expect(page.getByText('Login failed', { exact: true })).toBeVisible();
    expect(await sessionCookie(page)).toBeNull();

    await dialog.getByLabel('Password').fill(user.password);
    // Enter is blocked in the auth modals: only the button signs in.
    await dialog.getByLabel('Password').press('Enter');
    await login.click();
    await expect(page).toHaveURL(/\/profile$/);
    expect(grants).toHaveLength(2);
    await expect(page.getByRole('region', { name: 'Profile details' }).getByText(user.email)).toBeVisible();
    const session = await sessionCookie(page);
    expect(session?.sub).toBe(user.sub);
    expect(JSON.stringify(session)).not.toContain(user.password);
  });

  test('forgot password: toast, reset link from the outbox, new password, login with it', async ({
    page,
  }) => {
    const user = await registerEmailUserByApi(page.request, { password: 'old-secret' });
    const dialog = await openEmailLogin(page);
    await dialog.getByRole('button', { name: 'Forgot password?' }).click();
    await expect(dialog.getByRole('heading', { name: 'Forgot password' })).toBeVisible();
    const beforeLink = await outboxMark(page.request, user.email);
    await dialog.getByLabel('Email address').fill(user.email);
    await dialog.getByRole('button', { name: 'Send reset link' }).click();
    await expect(
      page.getByText("If an account exists you'll receive a link by email to create a new password."),
    ).toBeVisible();
    // Back at the login form.
    await expect(dialog.getByRole('button', { name: 'Login', exact: true })).toBeVisible();

    const { link } = await latestMessage(page.request, user.email, beforeLink);
    expect(link).toMatch(/\/reset-password\?token=[\w-]+$/);
    const resetUrl = new URL(link ?? '');
    await page.goto(resetUrl.pathname + resetUrl.search);
    await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
    await page.getByLabel('New password').fill('new-secret');
    await page.getByLabel('Confirm password').fill('other-secret');
    await page.getByRole('button', { name: 'Save new password' }).click();
    await expect(page.getByText('Passwords do not match.')).toBeVisible();
    await page.getByLabel('Confirm password').fill('new-secret');
    await page.getByRole('button', { name: 'Save new password' }).click();
    await expect(
      page.getByText('Your password has been changed. Log in with the new password.'),
    ).toBeVisible();
    // The login modal opens where the new password is used: on E-mail, not on Mobile.
    await expect(page).toHaveURL(/\/login\?method=email$/);
    const afterReset = page.getByRole('dialog', { name: 'Login or register your account' });
    await expect(afterReset.getByRole('button', { name: 'E-mail', exact: true })).toHaveAttribute(
      'aria-pressed',
      'true',
    );
    await expect(afterReset.getByLabel('Password')).toBeVisible();
    // The address the password was reset for is already filled in (issue 37).
    await expect(afterReset.getByLabel('Email address')).toHaveValue(user.email);

    // The link works once.
    await page.goto(resetUrl.pathname + resetUrl.search);
    await page.getByLabel('New password').fill('third-secret');
    await page.getByLabel('Confirm password').fill('third-secret');
    await page.getByRole('button', { name: 'Save new password' }).click();
    await expect(
      page.getByText('This reset link is invalid, expired or already used. Ask for a new one.'),
    ).toBeVisible();

    const again = await openEmailLogin(page);
    await again.getByLabel('Email address').fill(user.email);
    await again.getByLabel('Password').fill('old-secret');
    await again.getByRole('button', { name: 'Login', exact: true }).click();
    await expect(again.getByText('Login failed. Please check your details and try again.')).toBeVisible();
    await again.getByLabel('Password').fill('new-secret');
    await again.getByRole('button', { name: 'Login', exact: true }).click();
    await expect(page).toHaveURL(/\/profile$/);
    await expect(page.getByRole('region', { name: 'Profile details' }).getByText(user.email)).toBeVisible();
    expect((await sessionCookie(page))?.sub).toBe(user.sub);
  });

  test('in Mongolian: a new password needs 6 characters, and login after the reset starts with the address', async ({
    page,
  }) => {
    const user = await registerEmailUserByApi(page.request, { password: 'old-secret' });
    const mark = await outboxMark(page.request, user.email);
    const asked = await page.request.post(`${baseUrl()}/api/users/forgot-password`, {
      headers: { StoreId: 'MNCO' },
      data: { Email: user.email, Language: 'MN' },
    });
    expect(asked.ok()).toBe(true);
    const { link } = await latestMessage(page.request, user.email, mark);
    const resetUrl = new URL(link ?? '');

    await useLanguage(page, 'mn');
    await page.goto(resetUrl.pathname + resetUrl.search);
    const save = page.getByRole('button', { name: text('mn', 'accounts:reset.save') });
    await page.getByLabel(text('mn', 'accounts:reset.new-password')).fill('short');
    await page.getByLabel(text('mn', 'accounts:email.confirm-password')).fill('short');
    await save.click();
    await expect(page.getByText(text('mn', 'common:validation.password-min-length'))).toBeVisible();
    expect(text('mn', 'common:validation.password-min-length')).toContain('6');

    await page.getByLabel(text('mn', 'accounts:reset.new-password')).fill('eight-88');
    await page.getByLabel(text('mn', 'accounts:email.confirm-password')).fill('eight-88');
    await save.click();
    const login = page.getByRole('dialog', { name: text('mn', 'accounts:modal.title') });
    await expect(login.getByLabel(text('mn', 'accounts:email.address'))).toHaveValue(user.email);
    await login.getByLabel(text('mn', 'accounts:email.password')).fill('eight-88');
    await login.getByRole('button', { name: text('mn', 'accounts:email.login'), exact: true }).click();
    await expect(page).toHaveURL(/\/profile$/);
  });
});
