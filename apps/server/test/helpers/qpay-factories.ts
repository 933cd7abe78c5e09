import type { QpayFaultsRequest } from '@tunes/sandboxes/qpay/faults';
import { expect } from 'vitest';
import { qpaySenderInvoiceNo } from '../../src/modules/premium/qpay-payments.js';
import { shopper } from './factories.js';
import type { TestApp } from './test-app.js';

/** What `POST /api/payments/checkout` answers for QPay. */
export interface QpayAnswer {
  invoiceId: string;
  method: 'qpay';
  qrImage: string;
  qrText: string;
  shortUrl: string;
  deeplinks: { name: string; description: string; logo: string; link: string }[];
  amount: number;
  currency: string;
}

/** Starts a QPay checkout that must succeed. */
export async function qpayCheckout(
  t: TestApp,
  headers: Record<string, string>,
  MerchantCode: string,
  extra: Record<string, unknown> = {},
): Promise<QpayAnswer> {
  const response = await t.app.inject({
    method: 'POST',
    url: '/api/payments/checkout',
    headers,
    payload: { MerchantCode, method: 'qpay', ...extra },
  });
  expect(response.statusCode, response.body).toBe(200);
  return response.json() as QpayAnswer;
}

/** Opens a bank app's link like the shopper's phone and approves (or declines) the payment. */
export async function answerAtBank(t: TestApp, checkout: QpayAnswer, approve = true, bankIndex = 0) {
  const link = new URL(checkout.deeplinks[bankIndex]?.link ?? '');
  const page = await t.app.inject({ method: 'GET', url: link.pathname + link.search });
  expect(page.statusCode, page.body).toBe(200);
  const hidden = (name: string) => new RegExp(`name="${name}" value="([^"]+)"`).exec(page.body)?.[1] ?? '';
  const response = await t.app.inject({
    method: 'POST',
    url: `${link.pathname}/${approve ? 'approve' : 'decline'}`,
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    payload: new URLSearchParams({ invoice: hidden('invoice'), form_key: hidden('form_key') }).toString(),
  });
  expect(response.statusCode, response.body).toBe(200);
  return response;
}

/** A shopper who bought `code` with QPay (approved at the first bank); answers the checkout too. */
export async function qpaySubscriber(t: TestApp, code: string, extra: Record<string, unknown> = {}) {
  const buyer = await shopper(t);
  const checkout = await qpayCheckout(t, buyer.headers, code, extra);
  await answerAtBank(t, checkout);
  return { ...buyer, checkout, invoiceId: checkout.invoiceId };
}

/** `GET /api/payments/{invoiceId}` as the waiting page polls it. */
export async function paymentStatus(t: TestApp, headers: Record<string, string>, invoiceId: string) {
  const response = await t.app.inject({
    method: 'GET',
    url: `/api/payments/${encodeURIComponent(invoiceId)}`,
    headers,
  });
  expect(response.statusCode, response.body).toBe(200);
  return (response.json() as { status: string }).status;
}

/** QPay's unsigned callback, as anyone on the internet can send it. */
export function qpayCallback(t: TestApp, invoiceId: string, method: 'GET' | 'POST' = 'GET') {
  return t.app.inject({
    method,
    url: `/api/payments/qpay/callback?${new URLSearchParams({ invoiceId }).toString()}`,
    ...(method === 'POST' ? { payload: { payment_id: 'forged' } } : {}),
  });
}

/** The sandbox QPay invoice opened for one of ours (QPay knows it by `qpaySenderInvoiceNo`). */
export async function sandboxQpayInvoiceOf(t: TestApp, invoiceId: string) {
  return t.db
    .selectFrom('sandbox_qpay_invoices')
    .selectAll()
    .where('sender_invoice_no', '=', qpaySenderInvoiceNo(invoiceId))
    .executeTakeFirstOrThrow();
}

/** Orders faults of the QPay sandbox (apps/sandboxes/src/qpay/faults.ts): outages, delays, the next approval's status. */
export async function orderQpayFaults(t: TestApp, order: Partial<QpayFaultsRequest>) {
  const response = await t.app.inject({ method: 'POST', url: '/sandbox-qpay/test/faults', payload: order });
  expect(response.statusCode, response.body).toBe(204);
}

/** Runs the due jobs through the development contract, as an outside test would. */
export async function runDue(t: TestApp) {
  const ran = await t.app.inject({ method: 'POST', url: '/dev/jobs/run-due' });
  expect(ran.statusCode, ran.body).toBe(200);
  return ran.json() as { ran: { name: string; count: number }[] };
}

/** Makes QPay's callback go nowhere, as when it is lost on the way. */
export async function loseCallbacks(t: TestApp, invoiceId: string) {
  await t.db
    .updateTable('sandbox_qpay_invoices')
    .set({ callback_url: `${t.config.PUBLIC_URL}/nowhere` })
    .where('sender_invoice_no', '=', qpaySenderInvoiceNo(invoiceId))
    .execute();
}
