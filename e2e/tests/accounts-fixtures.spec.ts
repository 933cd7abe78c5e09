import { bearer, expect, readOutbox, signInByApi, test } from '../fixtures';

test.describe('sign-in fixtures', () => {
  test('signIn registers a fresh number through the API and the site sees the session', async ({
    page,
    signIn,
  }) => {
    const user = await signIn();
    expect(user.msisdn).toMatch(/^976\d{8}$/);
    const [sms] = await readOutbox(page.request, user.msisdn);
    expect(sms).toMatchObject({ channel: 'sms', to: user.msisdn, code: expect.stringMatching(/^\d{4}$/) });
    const profile = await page.request.get(`/api/users/${user.sub}/profile`, {
      headers: bearer(user.access_token),
    });
    expect(profile.ok()).toBe(true);
    expect(await profile.json()).toMatchObject({ UserId: user.sub, PhoneNumber: user.msisdn });
    await page.goto('/contact');
    await expect(page.getByRole('banner').getByRole('link', { name: 'Profile' })).toBeVisible();
  });

  test('signInByApi signs the same number in again as the same user', async ({ request }) => {
    const first = await signInByApi(request);
    const again = await signInByApi(request, { msisdn: first.msisdn });
    expect(again.sub).toBe(first.sub);
  });
});
