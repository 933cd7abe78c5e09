import { expect } from 'vitest';
import { runDueAt } from '../helpers/dev-clock.js';
import type { QpayAnswer } from '../helpers/qpay-factories.js';
import { answerAtBank } from '../helpers/qpay-factories.js';
import type { TestApp } from '../helpers/test-app.js';

/** The trial calls as the site makes them, shared by the trial suites. */

export function startTrialCall(
  t: TestApp,
  headers: Record<string, string>,
  MerchantCode: string,
  method: 'card' | 'qpay',
) {
  return t.app.inject({
    method: 'POST',
    url: '/api/premium/trial',
    headers,
    payload: { MerchantCode, method },
  });
}

/** Starts a trial that must be answered 200. */
export async function startTrial(
  t: TestApp,
  headers: Record<string, string>,
  MerchantCode: string,
  method: 'card' | 'qpay',
) {
  const response = await startTrialCall(t, headers, MerchantCode, method);
  expect(response.statusCode, response.body).toBe(200);
  return response.json() as { url?: string; startedUntil?: string };
}

/** Moves the server clock (development contract) and runs what is due. */
export const at = runDueAt;

/** The messages sent to a number, oldest first. */
export async function messagesTo(t: TestApp, to: string) {
  const response = await t.app.inject({ method: 'GET', url: `/dev/outbox?to=${to}` });
  return (response.json() as { text: string; link: string | null }[]).reverse();
}

export async function billing(t: TestApp, headers: Record<string, string>) {
  const response = await t.app.inject({ method: 'GET', url: '/api/users/me/billing', headers });
  expect(response.statusCode, response.body).toBe(200);
  return response.json() as {
    card: { last4: string } | null;
    renewal: { subscriptionId: string; endDate: string; autoRenew: boolean; amount: number } | null;
    trial: { endsAt: string; amountAfter: number; method: 'card' | 'qpay'; cancelled: boolean } | null;
  };
}

/** Pays a renewal link's invoice with QPay at the first bank, as the listener does from the link. */
export async function payLinkByQpay(t: TestApp, headers: Record<string, string>, invoiceId: string) {
  const response = await t.app.inject({
    method: 'POST',
    url: `/api/payments/${encodeURIComponent(invoiceId)}/pay`,
    headers,
    payload: { method: 'qpay' },
  });
  expect(response.statusCode, response.body).toBe(200);
  await answerAtBank(t, response.json() as QpayAnswer);
}

/** Cancels auto-renew as /profile does. */
export async function cancelRenewal(
  t: TestApp,
  headers: Record<string, string>,
  userId: string,
  subscriptionId: string,
) {
  const response = await t.app.inject({
    method: 'POST',
    url: `/api/users/${userId}/subscriptions/${subscriptionId}/cancel`,
    headers,
  });
  expect(response.statusCode, response.body).toBe(200);
}
