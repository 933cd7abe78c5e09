import type { Page } from '@playwright/test';
import {
  baseUrl,
  bearer,
  expect,
  latestMessage,
  outboxMark,
  readOutbox,
  type SignedInUser,
  signInByApi,
  writeAuthCookie,
} from '../fixtures';
import { testOnOwnServer } from '../own-server';
import { familyPlanWithInvitation, text } from './a11y-helpers';
import { at, billingOf, buyByCard } from './clock-helpers';

/**
 * Issue 37's messages, read from the development outbox: after every charge a message with its
 * receipt's link (a first purchase is a welcome to Premium), in the account's language; and a
 * member the owner removes is told, their profile saying their Premium ended. The clock moves to
 * a renewal, so the file has a server of its own.
 */
const test = testOnOwnServer;
test.describe.configure({ mode: 'default' });
// A listener in Mongolia: the site shows dates in the browser's zone, messages in Ulaanbaatar's.
test.use({ timezoneId: 'Asia/Ulaanbaatar' });

const mn = (key: string) => text('mn', key);

const invoiceOf = (page: Page) => new URL(page.url()).searchParams.get('invoiceId') ?? '';

test('a first card purchase: welcome to Premium with the receipt link; each renewal: a message with its receipt', async ({
  page,
  signIn,
}) => {
  const user = await signIn();
  await page.goto('/premium');
  const bought = await outboxMark(page.request, user.msisdn);
  await buyByCard(page, 'Premium', 'Get package');
  const purchase = invoiceOf(page);
  const welcome = await latestMessage(page.request, user.msisdn, bought);
  expect(welcome.text).toMatch(/^Welcome to Premium! Your Premium is active until .+: unlimited skips/);
  expect(welcome.link).toBe(`${baseUrl()}/receipts/${encodeURIComponent(purchase)}`);
  expect(welcome.text).toContain(welcome.link ?? 'no link');

  // The link opens the purchase's receipt, and the date it names is the profile's end date.
  await page.goto(welcome.link ?? '');
  const receipt = page.getByRole('article', { name: 'Receipt' });
  await expect(receipt.getByText(purchase)).toBeVisible();
  const billing = await billingOf(page.request, user);
  const end = new Date(billing.renewal?.endDate ?? '');
  const shown = new Intl.DateTimeFormat('en', { dateStyle: 'long', timeZone: 'Asia/Ulaanbaatar' }).format(
    end,
  );
  expect(welcome.text).toContain(`active until ${shown}`);
  await page.goto('/profile');
  await expect(page.getByRole('region', { name: 'Subscription' })).toContainText(shown);

  const renewed = await outboxMark(page.request, user.msisdn);
  await at(page.request, end.getTime() + 60_000);
  const message = await latestMessage(page.request, user.msisdn, renewed);
  expect(message.text).toMatch(/^Your Premium renewed: 6,900 ₮ paid|^Your Premium renewed: ₮6,900 paid/);
  expect(message.link).toMatch(new RegExp(`^${baseUrl()}/receipts/`));
  expect(message.link).not.toBe(welcome.link);
  await page.goto(message.link ?? '');
  await expect(page.getByRole('article', { name: 'Receipt' })).toContainText('Renewal');
});

test('in Mongolian: a QPay purchase is welcomed in Mongolian with its receipt link', async ({
  page,
  signIn,
}) => {
  const user = await signIn();
  await page.goto('/premium');
  await page.getByRole('button', { name: 'Монгол' }).click();
  await page.getByRole('radio', { name: /^QPay/ }).check();
  const bought = await outboxMark(page.request, user.msisdn);
  await page
    .getByRole('article', { name: 'Премиум', exact: true })
    .getByRole('button', { name: mn('premium:plan.get') })
    .click();
  await expect(page).toHaveURL(/\/premium\?invoice=[^&]+$/);
  const invoiceId = new URL(page.url()).searchParams.get('invoice') ?? '';
  // The QPay page says what it is for, not the plans page's lone "PREMIUM" label (issue 37).
  await expect(page.getByRole('heading', { level: 1, name: mn('premium:qpay.page-title') })).toBeVisible();
  const link = await page.getByRole('link', { name: mn('premium:qpay.open-link') }).getAttribute('href');
  const phone = await page.context().newPage();
  await phone.goto(link ?? '');
  await phone.getByRole('link', { name: /Khan bank/ }).click();
  await phone.getByRole('button', { name: /^Approve payment/ }).click();
  // Closing the phone while its approval is still posting can hang Chromium's close (CI, stop 43).
  await expect(phone.getByRole('heading', { name: 'Payment approved' })).toBeVisible();
  await phone.close();
  await expect(page).toHaveURL(/\/success\?invoiceId=/, { timeout: 20_000 });

  const welcome = await latestMessage(page.request, user.msisdn, bought);
  expect(welcome.text).toMatch(/^Премиумд тавтай морил! Таны Премиум багц идэвхжлээ/);
  expect(welcome.link).toBe(`${baseUrl()}/receipts/${encodeURIComponent(invoiceId)}`);
  await page.goto(welcome.link ?? '');
  await expect(page.getByRole('heading', { level: 1, name: mn('billing:receipt.title') })).toBeVisible();
});

test('in Mongolian: a member the owner removes is told, and their profile says their Premium ended', async ({
  page,
  browser,
  signIn,
}) => {
  const owner = await signIn();
  const code = await familyPlanWithInvitation(page.request, owner);
  const member: SignedInUser = await signInByApi(page.request);
  const language = await page.request.patch(`${baseUrl()}/api/users/me/details`, {
    headers: bearer(member.access_token),
    data: { Language: 'mn', FirstName: 'Сараа' },
  });
  expect(language.ok(), await language.text()).toBe(true);
  const accepted = await page.request.post(`${baseUrl()}/api/subscription/invitations/${code}`, {
    headers: bearer(member.access_token),
  });
  expect(accepted.ok(), await accepted.text()).toBe(true);

  await page.goto('/profile');
  await page.getByRole('button', { name: 'Монгол' }).click();
  const mark = await outboxMark(page.request, member.msisdn);
  await page
    .getByRole('button', { name: mn('family:manage.remove-label').replace('{{name}}', 'Сараа') })
    .click();
  await page
    .getByRole('alertdialog')
    .getByRole('button', { name: mn('family:manage.remove'), exact: true })
    .click();
  await expect(page.getByRole('alertdialog')).toBeHidden();

  const told = await latestMessage(page.request, member.msisdn, mark);
  expect(told.text).toMatch(/таныг хуваалцсан Tunes багцаасаа хаслаа, тиймээс таны Премиум эрх дууслаа\./);
  expect(told.link).toBe(`${baseUrl()}/premium`);
  expect((await readOutbox(page.request, member.msisdn)).filter((m) => m.text === told.text)).toHaveLength(1);

  // The member's own profile: Premium ended today, not "no Premium yet".
  const context = await browser.newContext();
  const memberPage = await context.newPage();
  await memberPage.addInitScript(() => window.localStorage.setItem('language', 'mn'));
  await writeAuthCookie(memberPage, member);
  await memberPage.goto(`${baseUrl()}/profile`);
  const status = memberPage.getByRole('region', { name: mn('premium:status.title') });
  await expect(status).toContainText(mn('premium:status.ended').split('{{date}}')[0] ?? '');
  await expect(status).not.toContainText(mn('premium:status.none'));
  await context.close();
});
