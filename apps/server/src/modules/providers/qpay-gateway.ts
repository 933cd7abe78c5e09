import { z } from 'zod';
import type { Clock } from '../../lib/clock.js';
import { type Exchange, GatewayError } from './exchange.js';
import { QPAY_DOCUMENTED_PAYMENT_STATUSES, qpayCreateInvoiceRequest } from './qpay-contract.js';
import type { JsonAnswer, JsonCall } from './transport.js';

/** What our invoice asks QPay for (`POST /v2/invoice`); the adapter adds the invoice code. */
export interface QpayInvoiceRequest {
  /** Our unique number for the invoice, at most 45 characters (qpay-payments.ts `qpaySenderInvoiceNo`). */
  senderInvoiceNo: string;
  description: string;
  amount: number;
  callbackUrl: string;
}

export interface QpayDeeplink {
  name: string;
  description: string;
  logo: string;
  link: string;
}

export interface QpayInvoice {
  invoiceId: string;
  qrText: string;
  qrImage: string;
  shortUrl: string;
  deeplinks: QpayDeeplink[];
}

/**
 * The payment statuses the adapter reads: the description's (qpay-contract.ts: `PARTIAL` is part
 * of an invoice paid, `REFUND` a payment given back) and `REFUNDED`, which QPay's older pages
 * name. A row in any other status is `UNKNOWN`: it counts as nothing, and the answer stays readable.
 */
export const QPAY_PAYMENT_STATUSES = [...QPAY_DOCUMENTED_PAYMENT_STATUSES, 'REFUNDED', 'UNKNOWN'] as const;
export type QpayPaymentStatus = (typeof QPAY_PAYMENT_STATUSES)[number];
const knownStatuses = new Set<string>(QPAY_PAYMENT_STATUSES);

/** `POST /v2/payment/check` for one QPay invoice: its payments and the sum paid. */
export interface QpayPayments {
  paidAmount: number;
  rows: {
    paymentId: string;
    status: QpayPaymentStatus;
    amount: number;
    currency: string;
    /** When QPay says it was paid (`payment_date`), if it says. */
    paidAt?: Date;
  }[];
}

export interface QpayGateway {
  createInvoice(input: QpayInvoiceRequest): Promise<Exchange<QpayInvoice>>;
  getInvoice(qpayInvoiceId: string): Promise<Exchange<{ status: string; amount: number }>>;
  checkPayment(qpayInvoiceId: string): Promise<Exchange<QpayPayments>>;
  /** Closes an unpaid QPay invoice, so nobody can pay it after we gave it up. */
  cancelInvoice(qpayInvoiceId: string): Promise<Exchange<null>>;
  /**
   * Gives back one paid QPay payment (`DELETE /v2/payment/refund/{payment_id}`). QPay refunds a
   * payment whole: there is no amount to give. `note` is shown with the refund. Asking again for
   * a payment already given back (QPay answers PAYMENT_ALREADY_CANCELED) succeeds, so a retry
   * after a lost answer is safe.
   */
  refundPayment(paymentId: string, note?: string): Promise<Exchange<null>>;
}

export interface QpayOptions {
  baseUrl: string;
  clientId: string;
  clientSecret: string;
  invoiceCode: string;
  receiverCode: string;
  call: JsonCall;
  clock: Clock;
}

/** QPay writes amounts as numbers or as decimal strings ("17900.00"). */
const amount = z.union([
  z.number(),
  z
    .string()
    .regex(/^\d+(\.\d+)?$/)
    .transform(Number),
]);

const tokenAnswer = z.object({
  access_token: z.string().min(8).max(4000),
  refresh_token: z.string().min(8).max(4000),
  expires_in: z.number(),
  refresh_expires_in: z.number(),
});
const invoiceAnswer = z.object({
  invoice_id: z.string().min(1).max(200),
  qr_text: z.string().max(4000),
  qr_image: z.string().max(200_000),
  qPay_shortUrl: z.string().max(500),
  urls: z
    .array(
      z.object({
        name: z.string().max(200),
        description: z.string().max(500),
        logo: z.string().max(1000),
        link: z.string().max(4000),
      }),
    )
    .max(100),
});
const invoiceStateAnswer = z.object({ invoice_status: z.string().max(40), total_amount: amount });
const paymentCheckAnswer = z.object({
  count: z.number().int(),
  rows: z
    .array(
      z.object({
        payment_id: z.union([z.string(), z.number()]).transform(String),
        payment_status: z
          .string()
          .max(40)
          .transform((status) => (knownStatuses.has(status) ? (status as QpayPaymentStatus) : 'UNKNOWN')),
        payment_amount: amount,
        payment_currency: z.string().max(8),
        payment_date: z.string().max(40).nullish(),
      }),
    )
    .max(500),
});

/** QPay's error key: `error`, else `message` (which the description's client reads), if either is one. */
function errorKeyOf(body: unknown): string | undefined {
  if (!body || typeof body !== 'object') return undefined;
  const { error, message } = body as { error?: unknown; message?: unknown };
  if (typeof error === 'string') return error;
  return typeof message === 'string' && /^[A-Z_]{3,60}$/.test(message) ? message : undefined;
}

/** A token is renewed this long before QPay says it ends, so no call carries a dying one. */
const EXPIRY_MARGIN_MS = 60_000;

/**
 * QPay answers `expires_in` as the Unix time (seconds) the token ends, not as a duration; a
 * small number is read as seconds from now, so either form works.
 */
function expiryOf(value: number, now: number): number {
  return value > 1_000_000_000 ? value * 1000 : now + value * 1000;
}

interface Tokens {
  access: string;
  accessEnds: number;
  refresh: string;
  refreshEnds: number;
}

/**
 * The QPay merchant API v2 (product.md §12) spoken to `QPAY_URL`, the built-in sandbox by
 * default. The access token is taken with the client credentials (HTTP Basic), kept for this
 * process, renewed with the refresh token before it ends, and taken afresh when QPay refuses it.
 * Concurrent callers share one token request.
 */
export function httpQpayGateway(options: QpayOptions): QpayGateway {
  const { baseUrl, call, clock } = options;
  let tokens: Tokens | undefined;
  let pending: Promise<Tokens> | undefined;

  const fail = (message: string, request: Record<string, unknown>, response: unknown) =>
    new GatewayError(`QPay: ${message}`, request, response);

  const send = async (request: Parameters<JsonCall>[0], logged: Record<string, unknown>) => {
    try {
      return await call(request);
    } catch (error) {
      throw fail(`unreachable: ${(error as Error).message}`, logged, null);
    }
  };

  const readTokens = (answer: JsonAnswer, logged: Record<string, unknown>): Tokens => {
    if (answer.status < 200 || answer.status >= 300) {
      throw fail(`the token request answered ${answer.status}`, logged, answer.body);
    }
    const parsed = tokenAnswer.safeParse(answer.body);
    if (!parsed.success) throw fail('an unreadable token answer', logged, null);
    const now = clock.now().getTime();
    return {
      access: parsed.data.access_token,
      accessEnds: expiryOf(parsed.data.expires_in, now),
      refresh: parsed.data.refresh_token,
      refreshEnds: expiryOf(parsed.data.refresh_expires_in, now),
    };
  };

  const fetchTokens = async (): Promise<Tokens> => {
    const now = clock.now().getTime();
    if (tokens && tokens.refreshEnds - EXPIRY_MARGIN_MS > now) {
      const logged = { url: `${baseUrl}/v2/auth/refresh` };
      const answer = await send(
        { method: 'POST', url: logged.url, headers: { authorization: `Bearer ${tokens.refresh}` } },
        logged,
      );
      // A refused refresh token: start again with the client credentials.
      if (answer.status !== 401) return readTokens(answer, logged);
    }
    const logged = { url: `${baseUrl}/v2/auth/token`, client_id: options.clientId };
    const basic = Buffer.from(`${options.clientId}:${options.clientSecret}`).toString('base64');
    const answer = await send(
      { method: 'POST', url: logged.url, headers: { authorization: `Basic ${basic}` } },
      logged,
    );
    return readTokens(answer, logged);
  };

  const accessToken = async (renew: boolean): Promise<string> => {
    const now = clock.now().getTime();
    if (!renew && tokens && tokens.accessEnds - EXPIRY_MARGIN_MS > now) return tokens.access;
    pending ??= fetchTokens().finally(() => {
      pending = undefined;
    });
    tokens = await pending;
    return tokens.access;
  };

  /** One API call with the access token; a 401 renews the token and tries once more. */
  const api = async <T>(
    method: 'GET' | 'POST' | 'DELETE',
    path: string,
    body: Record<string, unknown> | undefined,
    schema: z.ZodType<T>,
  ): Promise<Exchange<T>> => {
    const logged = { method, url: `${baseUrl}${path}`, ...(body ? { body } : {}) };
    let answer: JsonAnswer | undefined;
    for (const renew of [false, true]) {
      const token = await accessToken(renew);
      answer = await send(
        {
          method,
          url: `${baseUrl}${path}`,
          headers: { authorization: `Bearer ${token}` },
          ...(body ? { body } : {}),
        },
        logged,
      );
      if (answer.status !== 401) break;
    }
    if (!answer || answer.status < 200 || answer.status >= 300) {
      throw fail(`answered ${answer?.status}`, logged, answer?.body);
    }
    const parsed = schema.safeParse(answer.body);
    if (!parsed.success) throw fail('an unreadable answer', logged, answer.body);
    return { request: logged, response: answer.body, result: parsed.data };
  };

  return {
    async createInvoice(input) {
      const body = {
        invoice_code: options.invoiceCode,
        sender_invoice_no: input.senderInvoiceNo,
        invoice_receiver_code: options.receiverCode,
        invoice_description: input.description,
        amount: input.amount,
        callback_url: input.callbackUrl,
      };
      // A request QPay's description refuses is our mistake (a code or an address too long): it
      // is named here rather than sent.
      const checked = qpayCreateInvoiceRequest.safeParse(body);
      if (!checked.success) {
        const issue = checked.error.issues[0];
        throw fail(`the invoice breaks QPay's rules: ${issue?.path.join('.')} ${issue?.message}`, body, null);
      }
      const exchange = await api('POST', '/v2/invoice', body, invoiceAnswer);
      const { result } = exchange;
      return {
        request: exchange.request,
        // The QR image is large and says nothing the QR text does not: the log keeps neither.
        response: { invoice_id: result.invoice_id, qPay_shortUrl: result.qPay_shortUrl },
        result: {
          invoiceId: result.invoice_id,
          qrText: result.qr_text,
          qrImage: result.qr_image,
          shortUrl: result.qPay_shortUrl,
          deeplinks: result.urls,
        },
      };
    },
    async getInvoice(qpayInvoiceId) {
      const exchange = await api(
        'GET',
        `/v2/invoice/${encodeURIComponent(qpayInvoiceId)}`,
        undefined,
        invoiceStateAnswer,
      );
      return {
        ...exchange,
        result: { status: exchange.result.invoice_status, amount: exchange.result.total_amount },
      };
    },
    async checkPayment(qpayInvoiceId) {
      const exchange = await api(
        'POST',
        '/v2/payment/check',
        { object_type: 'INVOICE', object_id: qpayInvoiceId, offset: { page_number: 1, page_limit: 100 } },
        paymentCheckAnswer,
      );
      const rows = exchange.result.rows.map((row) => ({
        paymentId: row.payment_id,
        status: row.payment_status,
        amount: row.payment_amount,
        currency: row.payment_currency,
        ...(row.payment_date && !Number.isNaN(Date.parse(row.payment_date))
          ? { paidAt: new Date(row.payment_date) }
          : {}),
      }));
      // QPay's `paid_amount` may count part payments: what was paid in full is summed here.
      const paidAmount = rows
        .filter((row) => row.status === 'PAID')
        .reduce((sum, row) => sum + row.amount, 0);
      return { ...exchange, result: { paidAmount, rows } };
    },
    async cancelInvoice(qpayInvoiceId) {
      try {
        const exchange = await api(
          'DELETE',
          `/v2/invoice/${encodeURIComponent(qpayInvoiceId)}`,
          undefined,
          z.unknown(),
        );
        return { ...exchange, result: null };
      } catch (error) {
        // Asked again after a lost answer: it is cancelled already, which is what we asked.
        if (error instanceof GatewayError && errorKeyOf(error.response) === 'INVOICE_ALREADY_CANCELED') {
          return { request: error.request, response: error.response, result: null };
        }
        throw error;
      }
    },
    async refundPayment(paymentId, note) {
      try {
        const exchange = await api(
          'DELETE',
          `/v2/payment/refund/${encodeURIComponent(paymentId)}`,
          note ? { note } : undefined,
          z.unknown(),
        );
        return { ...exchange, result: null };
      } catch (error) {
        // Asked again after a lost answer: the payment is given back already, which is what we asked.
        if (error instanceof GatewayError && errorKeyOf(error.response) === 'PAYMENT_ALREADY_CANCELED') {
          return { request: error.request, response: error.response, result: null };
        }
        throw error;
      }
    },
  };
}
