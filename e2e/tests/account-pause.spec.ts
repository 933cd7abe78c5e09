import type { APIRequestContext } from '@playwright/test';
import type { PauseState } from '@tunes/shared/billing';
import {
  baseUrl,
  bearer,
  expect,
  latestMessage,
  outboxMark,
  type SignedInUser,
  signInByApi,
} from '../fixtures';
import { testOnOwnServer } from '../own-server';
import { audit, text } from './a11y-helpers';
import { at, buyByCard, DAY_MS } from './clock-helpers';

/**
 * Premium paused for 1–3 months on /profile (issue 37, YouTube's offer), in English and
 * Mongolian: what it does spelled out before confirming (the members too), the messages at the
 * pause and before it resumes, the renewal moved by the span, and resume early. The clock moves
 * months ahead, so the file has a server of its own.
 */
const test = testOnOwnServer;
test.describe.configure({ mode: 'default' });
test.use({ timezoneId: 'Asia/Ulaanbaatar' });

async function pauseOf(request: APIRequestContext, user: SignedInUser): Promise<PauseState> {
  const response = await request.get(`${baseUrl()}/api/users/me/pause`, {
    headers: bearer(user.access_token),
  });
  expect(response.ok()).toBe(true);
  return (await response.json()) as PauseState;
}

async function subscriptionsOf(request: APIRequestContext, user: SignedInUser): Promise<unknown[]> {
  const response = await request.get(`${baseUrl()}/api/users/${user.sub}/profile`, {
    headers: bearer(user.access_token),
  });
  return ((await response.json()) as { Subscriptions: unknown[] }).Subscriptions;
}

const longDate = (iso: string) =>
  new Intl.DateTimeFormat('en', { dateStyle: 'long', timeZone: 'Asia/Ulaanbaatar' }).format(new Date(iso));

test('a Family owner pauses for 2 months: spelled out for the member too, no Premium for either during it, the card charged on the resumption day', async ({
  page,
  signIn,
}) => {
  test.setTimeout(120_000);
  const owner = await signIn();
  await page.goto('/premium');
  await buyByCard(page, 'Premium Family', 'Get package');
  const state = await pauseOf(page.request, owner);
  const code = await page.request.post(
    `${baseUrl()}/api/subscription/${state.subscriptionId}/invitation-code`,
    {
      headers: bearer(owner.access_token),
    },
  );
  const member = await signInByApi(page.request);
  const joined = await page.request.post(
    `${baseUrl()}/api/subscription/invitations/${((await code.json()) as { Code: string }).Code}`,
    { headers: bearer(member.access_token) },
  );
  expect(joined.ok(), await joined.text()).toBe(true);

  await page.goto('/profile');
  const billing = page.getByRole('region', { name: 'Billing' });
  await billing.getByRole('button', { name: 'Pause Premium' }).click();
  const dialog = page.getByRole('dialog', { name: 'Pause Premium' });
  await dialog.getByRole('radio', { name: '2 months' }).check();
  const end = state.endDate ?? '';
  const resumes = new Date(end);
  resumes.setUTCMonth(resumes.getUTCMonth() + 2);
  await expect(dialog).toContainText(`You keep Premium until ${longDate(end)}`);
  await expect(dialog).toContainText(
    `From then until ${longDate(resumes.toISOString())} you and the 1 member of your plan have no Premium`,
  );
  await expect(dialog).toContainText('we charge 17,900 ₮ to your card');
  expect(await audit(page, 'pause dialog')).toEqual([]);
  const paused = await outboxMark(page.request, owner.msisdn);
  await dialog.getByRole('button', { name: 'Pause for 2 months' }).click();
  await expect(dialog).toBeHidden();
  await expect(billing.getByRole('status').filter({ hasText: 'Premium pauses on' })).toContainText(
    longDate(resumes.toISOString()),
  );
  const told = await latestMessage(page.request, owner.msisdn, paused);
  expect(told.text).toMatch(/^Your Premium Family pauses on .+ for 2 months\./);
  expect(told.text).toContain('The members of your plan have no Premium during the pause either.');
  expect(told.text).toContain(longDate(resumes.toISOString()));

  // The pause begins at the end date: neither has Premium, and nothing is charged.
  await at(page.request, new Date(end).getTime() + 60_000);
  expect(await subscriptionsOf(page.request, owner)).toEqual([]);
  expect(await subscriptionsOf(page.request, member)).toEqual([]);
  await page.reload();
  await expect(page.getByRole('region', { name: 'Subscription' })).toContainText(
    `Your Premium is paused until ${longDate(resumes.toISOString())}`,
  );
  await expect(billing.getByRole('button', { name: 'Resume now' })).toBeVisible();

  const before = await outboxMark(page.request, owner.msisdn);
  await at(page.request, resumes.getTime() - 3 * DAY_MS + 60_000);
  expect((await latestMessage(page.request, owner.msisdn, before)).text).toMatch(
    /^Your Premium Family resumes on .+: we will charge ₮17,900 to your card\./,
  );
  await at(page.request, resumes.getTime() + 60_000);
  expect(await subscriptionsOf(page.request, owner)).toHaveLength(1);
  expect(await subscriptionsOf(page.request, member)).toHaveLength(1);
  await page.reload();
  await expect(
    page.getByRole('region', { name: 'Subscription' }).getByText('Active', { exact: true }),
  ).toBeVisible();
});

test('in Mongolian: a pause of 1 month, resumed early from /profile, with its messages in Mongolian', async ({
  page,
  signIn,
}) => {
  const mn = (key: string) => text('mn', key);
  const user = await signIn();
  await page.goto('/premium');
  await page.getByRole('button', { name: 'Монгол' }).click();
  await buyByCard(page, 'Премиум', mn('premium:plan.get'));

  await page.goto('/profile');
  const billing = page.getByRole('region', { name: mn('billing:title') });
  await billing.getByRole('button', { name: mn('billing:pause.open') }).click();
  const dialog = page.getByRole('dialog', { name: mn('billing:pause.dialog-title') });
  await expect(dialog.getByRole('radio', { name: '1 сар' })).toBeChecked();
  await expect(dialog).toContainText('Премиум эрх байхгүй бөгөөд төлбөр авахгүй');
  const paused = await outboxMark(page.request, user.msisdn);
  await dialog.getByRole('button', { name: '1 сараар түр зогсоох' }).click();
  await expect(dialog).toBeHidden();
  expect((await latestMessage(page.request, user.msisdn, paused)).text).toMatch(
    /^Таны Премиум багц .+-нд 1 сараар түр зогсоно\./,
  );

  const { endDate } = await pauseOf(page.request, user);
  await at(page.request, new Date(endDate ?? '').getTime() + 5 * DAY_MS);
  await page.reload();
  await expect(page.getByRole('region', { name: mn('premium:status.title') })).toContainText('түр зогссон');
  const renewed = await outboxMark(page.request, user.msisdn);
  await billing.getByRole('button', { name: mn('billing:pause.resume-now') }).click();
  await expect(page.getByText(mn('billing:pause.resumed'))).toBeVisible();
  expect((await latestMessage(page.request, user.msisdn, renewed)).text).toMatch(
    /^Таны Премиум багц сунгагдлаа/,
  );
  await expect(
    page
      .getByRole('region', { name: mn('premium:status.title') })
      .getByText(mn('premium:status.active'), { exact: true }),
  ).toBeVisible();
  expect((await pauseOf(page.request, user)).pause).toBeNull();
});
