import type { APIRequestContext, Page } from '@playwright/test';
import type { Billing, PaymentEntry } from '@tunes/shared/billing';
import { baseUrl, bearer, expect, type SignedInUser, serverNow } from '../fixtures';

/**
 * Billing walked with the development clock on a server of its own (e2e/own-server.ts): move
 * the clock and run what is due, read what the listener's profile reads, pay on the sandbox
 * gateway's pages.
 */

export const DAY_MS = 86_400_000;
export const PAID_CARD = '4242 4242 4242 4242';

/** Moves the server clock to `time` (never back) and runs every job then due. */
export async function at(request: APIRequestContext, time: number): Promise<void> {
  const now = (await serverNow(request)).getTime();
  if (time > now) {
    const moved = await request.post(`${baseUrl()}/dev/clock`, {
      data: { advanceSeconds: Math.ceil((time - now) / 1000) },
    });
    expect(moved.ok()).toBe(true);
  }
  const ran = await request.post(`${baseUrl()}/dev/jobs/run-due`, { timeout: 60_000 });
  expect(ran.ok(), await ran.text()).toBe(true);
}

/** `GET /api/users/me/billing`: what /profile's billing block shows. */
export async function billingOf(request: APIRequestContext, user: SignedInUser): Promise<Billing> {
  const response = await request.get(`${baseUrl()}/api/users/me/billing`, {
    headers: bearer(user.access_token),
  });
  expect(response.ok()).toBe(true);
  return (await response.json()) as Billing;
}

/** The listener's payment history (`GET /api/users/me/payments`), oldest first. */
export async function paymentsOf(request: APIRequestContext, user: SignedInUser): Promise<PaymentEntry[]> {
  const response = await request.get(`${baseUrl()}/api/users/me/payments`, {
    headers: bearer(user.access_token),
  });
  expect(response.ok()).toBe(true);
  return ((await response.json()) as PaymentEntry[]).reverse();
}

/** Fills the sandbox gateway's card form (payment or save-card page). */
export async function fillCard(page: Page, card = PAID_CARD): Promise<void> {
  await page.getByLabel('Card number').fill(card);
  await page.getByLabel('Expiry (MM/YY)').fill('12/39');
  await page.getByLabel('CVC').fill('123');
}

/** Buys `plan` on /premium with the paid card on the sandbox gateway's page, back to /success. */
export async function buyByCard(page: Page, plan: string, getPackage: string): Promise<void> {
  await page
    .getByRole('article', { name: plan, exact: true })
    .getByRole('button', { name: getPackage })
    .click();
  await fillCard(page);
  await page.getByRole('button', { name: /^Pay / }).click();
  await expect(page).toHaveURL(/\/success\?invoiceId=/);
}
