import { z } from 'zod';
import type { Clock } from '../../lib/clock.js';
import { type Exchange, GatewayError } from './exchange.js';
import { QPAY_DOCUMENTED_PAYMENT_STATUSES } from './qpay-contract.js';
import { qpayCreateInvoiceRequest } from './qpay-invoice-contract.js';
import { qpaySession } from './qpay-session.js';
import type { JsonCall } from './transport.js';

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

/**
 * The QPay merchant API v2 (product.md §12) spoken to `QPAY_URL`, the built-in sandbox by
 * default, each call with the access token of qpay-session.ts.
 */
export function httpQpayGateway(options: QpayOptions): QpayGateway {
  const { api, fail } = qpaySession(options);

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
