import type { APIRequestContext, Browser, Page } from '@playwright/test';
import { generate } from 'otplib';
import { baseUrl, expect, randomEmail } from '../fixtures';

/** Operators of the console (docs/console-api.md §7) for the console's end-to-end specs. */

export type Role = 'admin' | 'support' | 'content';
export interface ReadyOperator {
  email: string;
  password: string;
  totpSecret: string;
}

/** The console's CSRF header (docs/console-api.md §1). */
export const CONSOLE = { 'X-Tunes-Console': '1' };

/** A set-up operator with a known password and TOTP secret (`POST /dev/admin/operators`). */
export async function createOperator(
  request: APIRequestContext,
  role: Role,
  origin = baseUrl(),
): Promise<ReadyOperator> {
  const email = randomEmail(role);
  const response = await request.post(`${origin}/dev/admin/operators`, { data: { email, role } });
  expect(response.status(), await response.text()).toBe(201);
  const { password, totpSecret } = (await response.json()) as { password: string; totpSecret: string };
  return { email, password, totpSecret };
}

const faults = new WeakMap<Page, string[]>();

/** Fails on a translation key the console's catalogues lack, as the fixtures' pages do. */
export function expectNoMissingTranslations(page: Page): void {
  expect(faults.get(page) ?? [], 'missing translations in the console').toEqual([]);
}

/**
 * Signs an operator in on the console's page, in a browser context of its own; `serverTime` is
 * the server's clock when a test has moved it (the authenticator's code is the one for then).
 */
export async function consolePage(
  browser: Browser,
  baseURL: string,
  operator: ReadyOperator,
  viewport = { width: 1440, height: 900 },
  serverTime?: Date,
): Promise<Page> {
  const context = await browser.newContext({ baseURL, viewport });
  const page = await context.newPage();
  const found: string[] = [];
  faults.set(page, found);
  page.on('console', (message) => {
    if (message.type() === 'error' && /Missing translationId/.test(message.text()))
      found.push(message.text());
  });
  await page.goto('/admin/sign-in');
  await page.getByLabel('E-mail').fill(operator.email);
  await page.getByLabel('Password').fill(operator.password);
  const epoch = serverTime ? Math.floor(serverTime.getTime() / 1000) : undefined;
  await page
    .getByLabel('Authenticator code')
    .fill(await generate({ secret: operator.totpSecret, ...(epoch === undefined ? {} : { epoch }) }));
  await page.getByRole('button', { name: 'Sign in' }).click();
  await expect(page.getByRole('button', { name: 'Sign out' })).toBeVisible();
  return page;
}

/** The console's navigation links. */
export const navLinks = (page: Page) => page.getByRole('navigation', { name: 'Console' }).getByRole('link');
