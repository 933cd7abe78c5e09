import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ZodType } from 'zod';
import { newInvoiceId } from '../../src/modules/premium/checkout.js';
import {
  cancelQpayInvoice,
  openQpayPayment,
  qpaySenderInvoiceNo,
} from '../../src/modules/premium/qpay-payments.js';
import { settleInvoice } from '../../src/modules/premium/settlement.js';
import { createProviders } from '../../src/modules/providers/providers.js';
import {
  qpayBearerHeaders,
  qpayErrorResponse,
  qpayTokenRequestHeaders,
  qpayTokenResponse,
} from '../../src/modules/providers/qpay-contract.js';
import {
  qpayCreateInvoiceRequest,
  qpayCreateInvoiceResponse,
  qpayEmptyResponse,
  qpayInvoiceResponse,
} from '../../src/modules/providers/qpay-invoice-contract.js';
import {
  qpayPaymentCheckRequest,
  qpayPaymentCheckResponse,
  qpayPaymentListResponse,
  qpayRefundRequest,
} from '../../src/modules/providers/qpay-payment-contract.js';
import type { JsonAnswer, JsonCall, JsonRequest } from '../../src/modules/providers/transport.js';
import { createInvoice, PLAN_CODES, shopper, withPlans } from '../helpers/factories.js';
import { ownSubscriptions } from '../helpers/premium.js';
import {
  answerAtBank,
  loseCallbacks,
  paymentStatus,
  type QpayAnswer,
  qpayCheckout,
  sandboxQpayInvoiceOf,
} from '../helpers/qpay-factories.js';
import { createTestApp, type TestApp } from '../helpers/test-app.js';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
  await withPlans(t);
});
afterAll(async () => {
  await t.close();
});

/** Each call the adapter makes, as qpay-contract.ts describes it: its headers, body and answer. */
const DESCRIBED: { method: string; path: RegExp; headers: ZodType; body?: ZodType; answer: ZodType }[] = [
  {
    method: 'POST',
    path: /^\/v2\/auth\/token$/,
    headers: qpayTokenRequestHeaders,
    answer: qpayTokenResponse,
  },
  { method: 'POST', path: /^\/v2\/auth\/refresh$/, headers: qpayBearerHeaders, answer: qpayTokenResponse },
  {
    method: 'POST',
    path: /^\/v2\/invoice$/,
    headers: qpayBearerHeaders,
    body: qpayCreateInvoiceRequest,
    answer: qpayCreateInvoiceResponse,
  },
  { method: 'GET', path: /^\/v2\/invoice\/[^/]+$/, headers: qpayBearerHeaders, answer: qpayInvoiceResponse },
  { method: 'DELETE', path: /^\/v2\/invoice\/[^/]+$/, headers: qpayBearerHeaders, answer: qpayEmptyResponse },
  {
    method: 'POST',
    path: /^\/v2\/payment\/check$/,
    headers: qpayBearerHeaders,
    body: qpayPaymentCheckRequest,
    answer: qpayPaymentCheckResponse,
  },
  {
    method: 'DELETE',
    path: /^\/v2\/payment\/refund\/[^/]+$/,
    headers: qpayBearerHeaders,
    body: qpayRefundRequest,
    answer: qpayEmptyResponse,
  },
];

/** Deps whose QPay adapter is the real one over a transport that records every exchange. */
function recordingDeps() {
  const exchanges: { request: JsonRequest; answer: JsonAnswer }[] = [];
  const recording: JsonCall = async (request) => {
    const answer = await t.deps.transport.call(request);
    exchanges.push({ request, answer });
    return answer;
  };
  const { qpay } = createProviders(t.deps, recording);
  return { deps: { ...t.deps, qpay }, exchanges };
}

/** An open QPay-method invoice of `plan` for a new shopper, with an id as checkout makes them. */
async function openInvoice(plan: string = PLAN_CODES.premium) {
  const { user } = await shopper(t);
  const pkg = await t.db
    .selectFrom('packages')
    .selectAll()
    .where('merchant_code', '=', plan)
    .executeTakeFirstOrThrow();
  return createInvoice(t.db, user.id, pkg, { invoice_id: newInvoiceId(plan), method: 'qpay' });
}

/** A merchant-API call straight to the sandbox, with a fresh access token unless told otherwise. */
async function sandbox(method: 'GET' | 'POST' | 'DELETE', path: string, payload?: unknown, token?: string) {
  let access = token;
  if (access === undefined) {
    const basic = Buffer.from(`${t.config.QPAY_CLIENT_ID}:${t.config.QPAY_CLIENT_SECRET}`).toString('base64');
    const answer = await t.app.inject({
      method: 'POST',
      url: '/sandbox-qpay/v2/auth/token',
      headers: { authorization: `Basic ${basic}` },
    });
    access = (answer.json() as { access_token: string }).access_token;
  }
  return t.app.inject({
    method,
    url: `/sandbox-qpay${path}`,
    headers: access ? { authorization: `Bearer ${access}` } : {},
    ...(payload === undefined ? {} : { payload: payload as object }),
  });
}

describe("the adapter's requests and the sandbox's answers, against QPay's description", () => {
  it('token, invoice, check, read, refund, cancel and refresh: every request is one QPay accepts, every answer one it gives', async () => {
    const { deps, exchanges } = recordingDeps();
    const invoice = await openInvoice();
    const page = await openQpayPayment(deps, invoice.invoice_id);
    await loseCallbacks(t, invoice.invoice_id);
    await answerAtBank(t, page as QpayAnswer);
    expect(await settleInvoice(deps, invoice.invoice_id, 'check')).toBe('paid');
    const { id: qpayInvoiceId } = await sandboxQpayInvoiceOf(t, invoice.invoice_id);
    await deps.qpay.getInvoice(qpayInvoiceId);
    const [payment] = (await deps.qpay.checkPayment(qpayInvoiceId)).result.rows;
    await deps.qpay.refundPayment(payment?.paymentId ?? '', 'Butsaalt');

    const unpaid = await openInvoice(PLAN_CODES.duo);
    await openQpayPayment(deps, unpaid.invoice_id);
    expect(await cancelQpayInvoice(deps, unpaid.invoice_id)).toMatchObject({ result: null });
    // Cancelled twice (an answer lost on the way): QPay says so, and the adapter takes it as done.
    const { id: cancelledId } = await sandboxQpayInvoiceOf(t, unpaid.invoice_id);
    await expect(deps.qpay.cancelInvoice(cancelledId)).resolves.toMatchObject({ result: null });
    t.clock.advance(31 * 60_000);
    await deps.qpay.checkPayment(qpayInvoiceId);

    const calls = new Set<string>();
    for (const { request, answer } of exchanges) {
      const path = request.url.slice(t.config.QPAY_URL.length);
      const described = DESCRIBED.find((call) => call.method === request.method && call.path.test(path));
      expect(described, `${request.method} ${path}`).toBeDefined();
      if (!described) continue;
      calls.add(`${request.method} ${described.path.source}`);
      expect(described.headers.safeParse(request.headers ?? {}).error, path).toBeUndefined();
      if (described.body) expect(described.body.safeParse(request.body).error, path).toBeUndefined();
      else expect(request.body, path).toBeUndefined();
      const answerSchema = answer.status < 300 ? described.answer : qpayErrorResponse;
      expect(answerSchema.safeParse(answer.body).error, `${path} ${answer.status}`).toBeUndefined();
    }
    expect(calls.size).toBe(DESCRIBED.length);

    const created = exchanges.find((exchange) => exchange.request.url.endsWith('/v2/invoice'));
    expect(created?.request.body).toMatchObject({
      sender_invoice_no: qpaySenderInvoiceNo(invoice.invoice_id),
      invoice_code: t.config.QPAY_INVOICE_CODE,
    });
    expect(invoice.invoice_id.length).toBeGreaterThan(45);
    expect(qpaySenderInvoiceNo(invoice.invoice_id)).toMatch(/^[0-9a-f]{32}$/);
    // An id that is not a UUID (older rows, tests) still fits, and stays its own.
    expect(qpaySenderInvoiceNo('TEST-1A2B3C4D')).toHaveLength(32);
    expect(qpaySenderInvoiceNo('TEST-1A2B3C4D')).not.toBe(qpaySenderInvoiceNo('TEST-1A2B3C4E'));
  });

  it('two pages opening one invoice at once show one QR: QPay refuses or we cancel the second of its number', async () => {
    const { deps } = recordingDeps();
    const invoice = await openInvoice();
    const pages = await Promise.all([1, 2, 3].map(() => openQpayPayment(deps, invoice.invoice_id)));
    expect(new Set(pages.map((page) => page.qrText)).size).toBe(1);
    const opened = await t.db
      .selectFrom('sandbox_qpay_invoices')
      .select('status')
      .where('sender_invoice_no', '=', qpaySenderInvoiceNo(invoice.invoice_id))
      .where('status', '=', 'OPEN')
      .execute();
    expect(opened).toHaveLength(1);
  });

  it('a QPay checkout succeeds end to end against the strict sandbox: QR, bank approval, callback, Premium', async () => {
    const { user, headers } = await shopper(t);
    const checkout = await qpayCheckout(t, headers, PLAN_CODES.family);
    const opened = await sandboxQpayInvoiceOf(t, checkout.invoiceId);
    expect(opened.sender_invoice_no.length).toBeLessThanOrEqual(45);
    expect(opened.callback_url).toContain(encodeURIComponent(checkout.invoiceId));
    await answerAtBank(t, checkout);
    expect(await paymentStatus(t, headers, checkout.invoiceId)).toBe('paid');
    expect(await ownSubscriptions(t, user.id)).toHaveLength(1);

    const list = await sandbox('POST', '/v2/payment/list', {
      object_type: 'INVOICE',
      object_id: opened.id,
      start_date: new Date(t.clock.now().getTime() - 3_600_000).toISOString(),
      end_date: new Date(t.clock.now().getTime() + 3_600_000).toISOString(),
      offset: { page_number: 1, page_limit: 100 },
    });
    expect(list.statusCode, list.body).toBe(200);
    expect(qpayPaymentListResponse.parse(list.json()).rows).toEqual([
      expect.objectContaining({ payment_status: 'PAID', payment_amount: '17900.00' }),
    ]);
  });
});

describe('the sandbox refuses what QPay refuses, in its error shape', () => {
  const invoiceBody = (): Record<string, unknown> => ({
    invoice_code: t.config.QPAY_INVOICE_CODE,
    sender_invoice_no: randomBytes(16).toString('hex'),
    invoice_receiver_code: 'terminal',
    invoice_description: 'Tunes Premium',
    amount: 4_900,
    callback_url: `${t.config.PUBLIC_URL}/api/payments/qpay/callback?invoiceId=x`,
  });
  // A field set to undefined is left out of the JSON sent.
  const refused = async (answer: { statusCode: number; json(): unknown }, status: number, key: string) => {
    expect(answer.statusCode).toBe(status);
    const body = qpayErrorResponse.parse(answer.json());
    expect({ error: body.error, message: body.message }).toEqual({ error: key, message: key });
  };

  it.each([
    ['a sender_invoice_no of 46 characters', { sender_invoice_no: 'x'.repeat(46) }, 'VALIDATION_ERROR'],
    ['no sender_invoice_no', { sender_invoice_no: undefined }, 'VALIDATION_ERROR'],
    ['no invoice_code', { invoice_code: undefined }, 'INVOICE_CODE_INVALID'],
    ['an invoice_code of 46 characters', { invoice_code: 'C'.repeat(46) }, 'INVOICE_CODE_INVALID'],
    ['an invoice_code QPay did not give', { invoice_code: 'SOMEONE_ELSES' }, 'INVOICE_CODE_INVALID'],
    [
      'an invoice_receiver_code of 46 characters',
      { invoice_receiver_code: 'r'.repeat(46) },
      'VALIDATION_ERROR',
    ],
    ['no invoice_description', { invoice_description: undefined }, 'VALIDATION_ERROR'],
    [
      'an invoice_description of 256 characters',
      { invoice_description: 'd'.repeat(256) },
      'VALIDATION_ERROR',
    ],
    ['an amount of 0', { amount: 0 }, 'INVALID_AMOUNT'],
    ['a negative amount', { amount: -4_900 }, 'INVALID_AMOUNT'],
    ['an amount that is no number', { amount: 'much' }, 'INVALID_AMOUNT'],
    ['neither an amount nor lines', { amount: undefined }, 'INVALID_AMOUNT'],
    ['no callback_url', { callback_url: undefined }, 'VALIDATION_ERROR'],
    ['a callback_url that is not http(s)', { callback_url: 'ftp://example.com/qpay' }, 'VALIDATION_ERROR'],
    ['a callback_url that is no URL', { callback_url: 'call me back' }, 'VALIDATION_ERROR'],
    [
      'a callback_url of 256 characters',
      { callback_url: `https://example.com/${'c'.repeat(236)}` },
      'VALIDATION_ERROR',
    ],
    ['a field the description does not have', { colour: 'blue' }, 'VALIDATION_ERROR'],
    ['a tax_type outside its enum', { tax_type: '4' }, 'VALIDATION_ERROR'],
    [
      'a receiver e-mail that is no address',
      { invoice_receiver_data: { email: 'nope' } },
      'VALIDATION_ERROR',
    ],
    ['a subscription without its interval and webhook', { allow_subscribe: true }, 'VALIDATION_ERROR'],
  ])('an invoice with %s is a 400', async (_name, change, key) => {
    const body = { ...invoiceBody(), ...change };
    await refused(await sandbox('POST', '/v2/invoice', body), 400, key);
  });

  it('an invoice of lines and no amount is taken; a second invoice of the same sender_invoice_no is a 409', async () => {
    const body = {
      ...invoiceBody(),
      amount: undefined,
      lines: [{ line_description: 'Premium', line_quantity: '1.00', line_unit_price: '4900.00' }],
    };
    const first = await sandbox('POST', '/v2/invoice', body);
    expect(first.statusCode, first.body).toBe(200);
    expect(qpayCreateInvoiceResponse.safeParse(first.json()).error).toBeUndefined();
    await refused(await sandbox('POST', '/v2/invoice', body), 409, 'UNIQUE_ERROR');
  });

  it.each([
    ['an object_type outside its enum', { object_type: 'ORDER' }, 'INVALID_OBJECT_TYPE'],
    ['an object_id of 51 characters', { object_id: 'o'.repeat(51) }, 'OBJECT_DATA_ERROR'],
    ['no offset', { offset: undefined }, 'VALIDATION_ERROR'],
    ['a page_limit over 1000', { offset: { page_number: 1, page_limit: 1001 } }, 'VALIDATION_ERROR'],
    ['a page_number of 0', { offset: { page_number: 0, page_limit: 100 } }, 'VALIDATION_ERROR'],
  ])('a payment check with %s is a 400', async (_name, change, key) => {
    const body = {
      object_type: 'INVOICE',
      object_id: 'x',
      offset: { page_number: 1, page_limit: 100 },
      ...change,
    };
    await refused(await sandbox('POST', '/v2/payment/check', body), 400, key);
  });

  it('unknown objects are 422, missing or wrong credentials 401, a refund note over 255 characters and a list without dates 400', async () => {
    const check = {
      object_type: 'INVOICE',
      object_id: 'no-such-invoice',
      offset: { page_number: 1, page_limit: 100 },
    };
    await refused(await sandbox('POST', '/v2/payment/check', check), 422, 'INVOICE_NOTFOUND');
    await refused(await sandbox('GET', '/v2/invoice/no-such-invoice'), 422, 'INVOICE_NOTFOUND');
    await refused(
      await sandbox('DELETE', '/v2/payment/refund/123123', { note: 'x' }),
      422,
      'PAYMENT_NOTFOUND',
    );
    await refused(
      await sandbox('DELETE', '/v2/payment/refund/123123', { note: 'n'.repeat(256) }),
      400,
      'VALIDATION_ERROR',
    );
    await refused(await sandbox('POST', '/v2/invoice', invoiceBody(), ''), 401, 'NO_CREDENDIALS');
    await refused(
      await sandbox('POST', '/v2/invoice', invoiceBody(), 'not-a-live-token'),
      401,
      'NO_CREDENDIALS',
    );
    const wrong = await t.app.inject({
      method: 'POST',
      url: '/sandbox-qpay/v2/auth/token',
      headers: { authorization: `Basic ${Buffer.from('sandbox-qpay:wrong-secret').toString('base64')}` },
    });
    await refused(wrong, 401, 'AUTHENTICATION_FAILED');
    const list = { object_type: 'INVOICE', object_id: 'x', offset: { page_number: 1, page_limit: 10 } };
    await refused(await sandbox('POST', '/v2/payment/list', list), 400, 'VALIDATION_ERROR');
  });
});
