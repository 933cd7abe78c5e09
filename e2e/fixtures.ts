import { type APIRequestContext, test as base, expect, type Page } from '@playwright/test';
import { STORE_ID } from '@tunes/shared/constants';

/** A user signed in through the real API (product.md §4 mobile login). */
export interface SignedInUser {
  sub: string;
  /** Full number: 976 followed by 8 digits. */
  msisdn: string;
  access_token: string;
  refresh_token: string;
}

export interface SignInOptions {
  /** Sign this number in (registering it on first use); a fresh random number by default. */
  msisdn?: string;
}

export interface OutboxMessage {
  channel: 'sms' | 'email';
  to: string;
  text: string;
  code: string | null;
  link: string | null;
  createdAt: string;
}

/** The header of every request the site sends (docs/api.md). */
export const STORE = { StoreId: STORE_ID };

/** The site's headers for the holder of an access token. */
export const bearer = (accessToken: string) => ({ ...STORE, Authorization: `Bearer ${accessToken}` });

/** The site's origin for the running e2e server. */
export function baseUrl(): string {
  return `http://localhost:${process.env.E2E_PORT}`;
}

const issuedMsisdns = new Set<string>();

/**
 * A random Mongolian mobile number as the API takes it: 976 then 8 digits starting with 8 or 9.
 * Never one another test of the run holds: the worker's slot is its second digit and a worker
 * never draws a number twice (a drawn twin would sign in to someone else's account).
 */
export function randomMsisdn(): string {
  const slot = Number(process.env.TEST_PARALLEL_INDEX ?? 0) % 10;
  for (;;) {
    const first = Math.random() < 0.5 ? '8' : '9';
    const msisdn = `976${first}${slot}${String(Math.floor(Math.random() * 1_000_000)).padStart(6, '0')}`;
    if (!issuedMsisdns.has(msisdn)) {
      issuedMsisdns.add(msisdn);
      return msisdn;
    }
  }
}

/** A unique e-mail address for a test. */
export function randomEmail(prefix = 'e2e'): string {
  return `${prefix}-${Date.now().toString(36)}-${Math.random().toString(36).slice(2, 8)}@example.mn`;
}

/** Messages the server sent to a number or address, newest first (`GET /dev/outbox`). */
export async function readOutbox(request: APIRequestContext, to: string): Promise<OutboxMessage[]> {
  const response = await request.get(`${baseUrl()}/dev/outbox`, { params: { to } });
  expect(response.ok(), `GET /dev/outbox answered ${response.status()}`).toBe(true);
  return (await response.json()) as OutboxMessage[];
}

/**
 * The server's business time (POST /dev/clock with no advance answers it): tests on the shared
 * server move it forward 31 s at a time, so a day shown by the site is judged against it, not
 * against this machine's clock.
 */
export async function serverNow(request: APIRequestContext): Promise<Date> {
  const response = await request.post(`${baseUrl()}/dev/clock`, { data: { advanceSeconds: 0 } });
  expect(response.ok(), `POST /dev/clock answered ${response.status()}`).toBe(true);
  return new Date(((await response.json()) as { now: string }).now);
}

/**
 * Holds the page's answers to requests matching `url` (each request still reaches the server at
 * once) until the returned function is called, so what the page does before an answer comes, as a
 * code typed before the answer to "send a new code", happens on every run.
 */
export async function holdAnswers(page: Page, url: string): Promise<() => void> {
  let release = (): void => {};
  const released = new Promise<void>((resolve) => {
    release = resolve;
  });
  await page.route(url, async (route) => {
    const response = await route.fetch();
    await released;
    await route.fulfill({ response });
  });
  return release;
}

/** How many messages the outbox holds for a recipient now: `latestMessage` then waits for a newer one. */
export interface OutboxMark {
  to: string;
  held: number;
}

/**
 * Marks the outbox of `to` before an action that sends it a message. Messages carry the server's
 * business time, which /dev/clock moves for every test on the server, so "sent after" is judged
 * by what the outbox held, never by comparing clocks.
 */
export async function outboxMark(request: APIRequestContext, to: string): Promise<OutboxMark> {
  return { to, held: (await readOutbox(request, to)).length };
}

/** Waits for the newest message to `to` (one the outbox did not hold at `after`, if given). */
export async function latestMessage(
  request: APIRequestContext,
  to: string,
  after?: OutboxMark,
): Promise<OutboxMessage> {
  if (after && after.to !== to) throw new Error(`the mark is of ${after.to}, not of ${to}`);
  let messages: OutboxMessage[] = [];
  await expect
    .poll(async () => {
      messages = await readOutbox(request, to);
      return messages.length > (after?.held ?? 0);
    })
    .toBe(true);
  return messages[0] as OutboxMessage;
}

async function requestCode(request: APIRequestContext, msisdn: string): Promise<void> {
  for (let attempt = 0; attempt < 3; attempt++) {
    const response = await request.get(`${baseUrl()}/api/users/requestotp`, {
      headers: STORE,
      params: { msisdn, language: 'en', otpprovider: 'sms' },
    });
    if (response.ok()) return;
    if (response.status() !== 429)
      throw new Error(`requestotp answered ${response.status()}: ${await response.text()}`);
    // A code went to this number moments ago: move the server's clock past the resend throttle
    // (security.md), as the shared server's tests do 31 s at a time, rather than wait it out.
    const wait = Math.min(Number(response.headers()['retry-after'] ?? '30'), 30) + 1;
    const moved = await request.post(`${baseUrl()}/dev/clock`, { data: { advanceSeconds: wait } });
    if (!moved.ok()) throw new Error(`POST /dev/clock answered ${moved.status()}`);
  }
  throw new Error(`requestotp kept answering 429 for ${msisdn}`);
}

function grant(request: APIRequestContext, msisdn: string, code: string) {
  return request.post(`${baseUrl()}/api/oauth2/token`, {
    headers: STORE,
    form: { grant_type: 'msisdn', msisdn, code, skip_decryption: 'true' },
  });
}

function subjectOf(accessToken: string): string {
  const payload = accessToken.split('.')[1] ?? '';
  return (JSON.parse(Buffer.from(payload, 'base64url').toString('utf8')) as { sub: string }).sub;
}

/**
 * Signs a mobile user in through the real API only: requestotp → code from /dev/outbox →
 * msisdn grant; on 604 registerbymsisdn, then the grant again. For API-level setup.
 */
export async function signInByApi(
  request: APIRequestContext,
  options: SignInOptions = {},
): Promise<SignedInUser> {
  const msisdn = options.msisdn ?? randomMsisdn();
  const beforeCode = await outboxMark(request, msisdn);
  await requestCode(request, msisdn);
  const { code } = await latestMessage(request, msisdn, beforeCode);
  if (!code) throw new Error(`the message to ${msisdn} carries no code`);
  let answer = await grant(request, msisdn, code);
  if (answer.status() === 400 && ((await answer.json()) as { error?: string }).error === '604') {
    const registered = await request.post(`${baseUrl()}/api/users/registerbymsisdn`, {
      headers: STORE,
      data: { PhoneNumber: msisdn.slice(3), CountryCode: Number(msisdn.slice(0, 3)), Token: code },
    });
    if (!registered.ok())
      throw new Error(`registerbymsisdn answered ${registered.status()}: ${await registered.text()}`);
    answer = await grant(request, msisdn, code);
  }
  if (!answer.ok()) throw new Error(`the msisdn grant answered ${answer.status()}: ${await answer.text()}`);
  const tokens = (await answer.json()) as { access_token: string; refresh_token: string };
  return { sub: subjectOf(tokens.access_token), msisdn, ...tokens };
}

/**
 * Registers an e-mail account through the real API (requestotp with otpprovider=email → code
 * from /dev/outbox → register) and returns its id; sign in with the password grant or the site.
 */
export async function registerEmailUserByApi(
  request: APIRequestContext,
  options: { email?: string; password?: string } = {},
): Promise<{ sub: string; email: string; password: string }> {
  const email = options.email ?? randomEmail();
  const password = options.password ?? 'secret-123';
  const beforeCode = await outboxMark(request, email);
  const sent = await request.get(`${baseUrl()}/api/users/requestotp`, {
    headers: STORE,
    params: { email, otpprovider: 'email', language: 'en' },
  });
  if (!sent.ok()) throw new Error(`requestotp answered ${sent.status()}: ${await sent.text()}`);
  const { code } = await latestMessage(request, email, beforeCode);
  const registered = await request.post(`${baseUrl()}/api/users/register`, {
    headers: STORE,
    data: { Email: email, Username: email, Password: password, Country: 'MN', Language: 'en', Otp: code },
  });
  if (!registered.ok())
    throw new Error(`register answered ${registered.status()}: ${await registered.text()}`);
  const { UserId } = (await registered.json()) as { UserId: string };
  return { sub: UserId, email, password };
}

/** A silent-login token for `/premium?userId=…&token=…`, minted like `hmac:mint` (dev only). */
export async function mintSilentLoginToken(request: APIRequestContext, userId: string): Promise<string> {
  const response = await request.post(`${baseUrl()}/dev/accounts/hmac-token`, { data: { userId } });
  if (!response.ok()) throw new Error(`hmac-token answered ${response.status()}`);
  return ((await response.json()) as { token: string }).token;
}

/** The `authData` cookie value exactly as `apps/web/src/lib/session.ts` writeSession stores it. */
export function authDataCookieValue(user: SignedInUser): string {
  return encodeURIComponent(
    JSON.stringify({
      sub: user.sub,
      access_token: user.access_token,
      refresh_token: user.refresh_token,
      username: user.msisdn,
      phone: { number: user.msisdn.slice(3), countryCode: Number(user.msisdn.slice(0, 3)) },
    }),
  );
}

/** Writes the session cookie of `user` into the page's browser context (1-hour expiry). */
export async function writeAuthCookie(page: Page, user: SignedInUser): Promise<void> {
  await page.context().addCookies([
    {
      name: 'authData',
      value: authDataCookieValue(user),
      url: baseUrl(),
      expires: Math.floor(Date.now() / 1000) + 3600,
      sameSite: 'Lax',
    },
  ]);
}

/**
 * Creates (or signs in) a mobile user through the real API and puts the session into the
 * browser, so the next `page.goto` is signed in.
 */
export async function signIn(page: Page, options: SignInOptions = {}): Promise<SignedInUser> {
  const user = await signInByApi(page.request, options);
  await writeAuthCookie(page, user);
  return user;
}

/**
 * Console errors that fail any test: a translation key missing from a catalogue (the site
 * reports it once, `apps/web/src/lib/i18n.ts`) and a server-rendered page that React could not
 * hydrate (`apps/web/src/main.tsx`, or React's own hydration errors #418–#425).
 */
const SITE_FAULTS = /Missing translationId|Hydration mismatch|Minified React error #4(?:18|19|20|21|23|25)\b/;

export const test = base.extend<{
  /** `await signIn()` signs a fresh mobile user into this test's page. */
  signIn: (options?: SignInOptions) => Promise<SignedInUser>;
  /** Fails the test on SITE_FAULTS in the page's console (automatic). */
  siteFaults: void;
}>({
  // A prerendered page shows its buttons before React has taken them over (decision 0011): as a
  // person waits for a page to respond, `goto` and `reload` wait until the site marks itself
  // interactive (`data-interactive` on <html>, set after the first render or hydration). Pages
  // that are not the site's or the console's (no React root: the sandboxes' payment pages) are
  // ready when loaded.
  page: async ({ page, javaScriptEnabled }, use) => {
    if (javaScriptEnabled !== false) {
      const interactive = () =>
        page
          .waitForSelector('html[data-interactive], html:not(:has(#root))', {
            state: 'attached',
            timeout: 30_000,
          })
          .catch(() => {});
      const goto = page.goto.bind(page);
      const reload = page.reload.bind(page);
      page.goto = async (...args) => {
        const response = await goto(...args);
        await interactive();
        return response;
      };
      page.reload = async (...args) => {
        const response = await reload(...args);
        await interactive();
        return response;
      };
    }
    await use(page);
  },
  signIn: async ({ page }, use) => {
    await use((options) => signIn(page, options));
  },
  siteFaults: [
    async ({ page }, use) => {
      const faults: string[] = [];
      page.on('console', (message) => {
        if (message.type() === 'error' && SITE_FAULTS.test(message.text())) faults.push(message.text());
      });
      page.on('pageerror', (error) => {
        if (SITE_FAULTS.test(String(error))) faults.push(String(error));
      });
      await use();
      expect(faults, 'missing translations or hydration errors in the console').toEqual([]);
    },
    { auto: true },
  ],
});

export { expect };
