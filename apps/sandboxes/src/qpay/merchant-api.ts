import { timingSafeEqual } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import { ProviderRefusal } from '@tunes/server/lib/errors';
import { qrPngBase64 } from '@tunes/server/lib/qr-image';
import {
  QPAY_ERROR_STATUS,
  qpayErrorResponse,
  qpayTokenResponse,
} from '@tunes/server/modules/providers/qpay-contract';
import {
  qpayCreateInvoiceRequest,
  qpayCreateInvoiceResponse,
  qpayEmptyResponse,
  qpayInvoiceResponse,
} from '@tunes/server/modules/providers/qpay-invoice-contract';
import {
  qpayPaymentCheckRequest,
  qpayPaymentCheckResponse,
  qpayPaymentListRequest,
  qpayPaymentListResponse,
  qpayRefundRequest,
} from '@tunes/server/modules/providers/qpay-payment-contract';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { invoiceAnswer, paymentAnswer, paymentListAnswer, qpayErrorHandler } from './answers.js';
import { SANDBOX_BANKS, type SandboxBank } from './banks.js';
import { type QpayCall, takeQpayFault } from './faults.js';
import {
  cancelSandboxQpayInvoice,
  createSandboxQpayInvoice,
  findSandboxQpayInvoice,
  issueSandboxTokens,
  refundSandboxQpayPayment,
  sandboxQpayPayments,
  tokenOwner,
} from './invoices.js';

const refuse = (key: 'NO_CREDENDIALS' | 'AUTHENTICATION_FAILED', message: string) =>
  new ProviderRefusal(QPAY_ERROR_STATUS.UNAUTHORIZED_ERROR, key, message);
const notFound = (key: 'INVOICE_NOTFOUND', message: string) =>
  new ProviderRefusal(QPAY_ERROR_STATUS.NOT_FOUND_ERROR, key, message);

function sameSecret(given: string, expected: string): boolean {
  const a = Buffer.from(given);
  const b = Buffer.from(expected);
  return a.length === b.length && timingSafeEqual(a, b);
}

const bearer = (header: string | undefined) => /^Bearer (\S{8,500})$/.exec(header ?? '')?.[1];
const errors = {
  400: qpayErrorResponse,
  401: qpayErrorResponse,
  409: qpayErrorResponse,
  422: qpayErrorResponse,
  500: qpayErrorResponse,
};
const idParams = z.object({ id: z.string().min(1).max(100) });
const CALLS: [RegExp, Exclude<QpayCall, '*'>][] = [
  [/\/v2\/auth\/token$/, 'token'],
  [/\/v2\/auth\/refresh$/, 'refresh'],
  [/\/v2\/invoice(\/:id)?$/, 'invoice'],
  [/\/v2\/payment\/check$/, 'payment-check'],
  [/\/v2\/payment\/list$/, 'payment-list'],
  [/\/v2\/payment\/refund\/:id$/, 'refund'],
];
const callOf = (route: string) => CALLS.find(([pattern]) => pattern.test(route))?.[1];

/**
 * The QPay merchant API v2 of the sandbox, as strict as the description it follows
 * (the server's providers/qpay-contract.ts): every body is validated with the description's schemas (required
 * fields, lengths, formats, enums, no unknown field in an invoice) and every answer is serialized
 * through them; a refusal is QPay's own error shape and status (400, 401, 409, 422). Faults
 * ordered by a test (faults.ts) delay or fail each call.
 */
export default async function sandboxQpayMerchantApi(
  app: FastifyInstance,
  options: { scanUrl: (id: string) => string; bankUrl: (bank: SandboxBank, id: string) => string },
) {
  const { deps } = app;
  const { config } = deps;
  const routes = app.withTypeProvider<ZodTypeProvider>();

  app.setErrorHandler(qpayErrorHandler);
  // Faults the tests ordered (faults.ts): slow, a server error, or QPay unreachable behind its proxy.
  app.addHook('onRequest', async (request, reply) => {
    const call = callOf(request.routeOptions.url ?? '');
    if (!call) return;
    const fault = await takeQpayFault(deps, call);
    if (fault?.delay_ms) await sleep(fault.delay_ms);
    if (fault?.kind === 'unavailable') return reply.code(503).send({ message: 'Service Unavailable' });
    if (fault?.kind === 'error') {
      throw new ProviderRefusal(
        QPAY_ERROR_STATUS.INTERNAL_ERROR,
        'INTERNAL_ERROR',
        'An error ordered by a test.',
      );
    }
  });

  /** The merchant of each request's access token, checked before its body is read. */
  const merchants = new WeakMap<FastifyRequest, string>();
  const requireToken = async (request: FastifyRequest) => {
    const token = bearer(request.headers.authorization);
    const clientId = token ? await tokenOwner(deps, token, 'access') : undefined;
    if (!clientId) throw refuse('NO_CREDENDIALS', 'The access token is missing, unknown or expired.');
    merchants.set(request, clientId);
  };
  const merchant = (request: FastifyRequest) => {
    const clientId = merchants.get(request);
    if (!clientId) throw refuse('NO_CREDENDIALS', 'The access token is missing, unknown or expired.');
    return clientId;
  };
  const withToken = { onRequest: requireToken } as const;
  const security = [{ bearer: [] }];
  const tags = ['sandbox qpay'];
  const ownInvoice = async (clientId: string, id: string) => {
    const invoice = await findSandboxQpayInvoice(deps, id);
    if (!invoice || invoice.client_id !== clientId) throw notFound('INVOICE_NOTFOUND', 'No such invoice.');
    return invoice;
  };

  routes.post(
    '/v2/auth/token',
    {
      schema: {
        tags,
        summary: 'An access token for HTTP Basic client credentials (QPay v2)',
        security: [{ basic: [] }],
        response: { 200: qpayTokenResponse, ...errors },
      },
    },
    async (request) => {
      const basic = /^Basic ([A-Za-z0-9+/=]{4,1000})$/.exec(request.headers.authorization ?? '')?.[1];
      const [clientId = '', secret = ''] = Buffer.from(basic ?? '', 'base64')
        .toString('utf8')
        .split(':');
      if (!sameSecret(clientId, config.QPAY_CLIENT_ID) || !sameSecret(secret, config.QPAY_CLIENT_SECRET)) {
        throw refuse('AUTHENTICATION_FAILED', 'Unknown client or wrong secret.');
      }
      return issueSandboxTokens(deps, clientId);
    },
  );

  routes.post(
    '/v2/auth/refresh',
    {
      schema: {
        tags,
        summary: 'A new access token for a refresh token (QPay v2)',
        security,
        response: { 200: qpayTokenResponse, ...errors },
      },
    },
    async (request) => {
      const token = bearer(request.headers.authorization);
      const clientId = token ? await tokenOwner(deps, token, 'refresh') : undefined;
      if (!token || !clientId) throw refuse('NO_CREDENDIALS', 'The refresh token is unknown or expired.');
      return issueSandboxTokens(deps, clientId, token);
    },
  );

  routes.post(
    '/v2/invoice',
    {
      ...withToken,
      schema: {
        tags,
        summary: 'Create an invoice: its QR (text and PNG), short link and bank-app links (QPay v2)',
        security,
        body: qpayCreateInvoiceRequest,
        response: { 200: qpayCreateInvoiceResponse, ...errors },
      },
    },
    async (request) => {
      const { body } = request;
      if (body.invoice_code !== config.QPAY_INVOICE_CODE) {
        throw new ProviderRefusal(400, 'INVOICE_CODE_INVALID', 'Unknown invoice code.', {
          field: 'invoice_code',
        });
      }
      const lines = body.lines ?? [];
      const amount = Number(
        body.amount ??
          lines.reduce((sum, line) => sum + Number(line.line_quantity) * Number(line.line_unit_price), 0),
      );
      // The sandbox keeps whole tögrög; QPay itself takes decimals.
      if (!Number.isSafeInteger(amount) || amount <= 0) {
        throw new ProviderRefusal(400, 'INVALID_AMOUNT', 'The sandbox takes whole MNT amounts.', {
          field: 'amount',
        });
      }
      const id = await createSandboxQpayInvoice(deps, {
        clientId: merchant(request),
        invoiceCode: body.invoice_code,
        senderInvoiceNo: body.sender_invoice_no,
        receiverCode: body.invoice_receiver_code,
        description: body.invoice_description,
        amount,
        callbackUrl: body.callback_url,
      });
      if (!id) {
        throw new ProviderRefusal(
          QPAY_ERROR_STATUS.UNIQUE_ERROR,
          'UNIQUE_ERROR',
          'This sender_invoice_no is used by another invoice.',
          { field: 'sender_invoice_no' },
        );
      }
      // The QR opens the scan page, so a phone that scans it reaches the sandbox's bank apps.
      const qrText = options.scanUrl(id);
      return {
        invoice_id: id,
        qr_text: qrText,
        qr_image: await qrPngBase64(qrText),
        qPay_shortUrl: qrText,
        urls: SANDBOX_BANKS.map((bank) => ({
          name: bank.name,
          description: bank.description,
          logo: `${config.PUBLIC_URL}/sandbox-qpay/logos/${bank.id}.svg`,
          link: options.bankUrl(bank, id),
        })),
      };
    },
  );

  routes.get(
    '/v2/invoice/:id',
    {
      ...withToken,
      schema: {
        tags,
        summary: 'An invoice, its state and payments (QPay v2)',
        security,
        params: idParams,
        response: { 200: qpayInvoiceResponse, ...errors },
      },
    },
    async (request) => {
      const invoice = await ownInvoice(merchant(request), request.params.id);
      return invoiceAnswer(invoice, await sandboxQpayPayments(deps, invoice.id));
    },
  );

  routes.delete(
    '/v2/invoice/:id',
    {
      ...withToken,
      schema: {
        tags,
        summary: 'Cancel an unpaid invoice (QPay v2)',
        security,
        params: idParams,
        response: { 200: qpayEmptyResponse, ...errors },
      },
    },
    async (request) => {
      const invoice = await ownInvoice(merchant(request), request.params.id);
      const outcome = await cancelSandboxQpayInvoice(deps, invoice.id);
      if (outcome === 'PAID')
        throw new ProviderRefusal(400, 'INVOICE_PAID', 'A paid invoice cannot be cancelled.');
      if (outcome === 'CANCELLED') {
        throw new ProviderRefusal(400, 'INVOICE_ALREADY_CANCELED', 'This invoice was cancelled before.');
      }
      return {};
    },
  );

  routes.post(
    '/v2/payment/check',
    {
      ...withToken,
      schema: {
        tags,
        summary: "An invoice's payments (QPay v2)",
        security,
        body: qpayPaymentCheckRequest,
        response: { 200: qpayPaymentCheckResponse, ...errors },
      },
    },
    async (request) => {
      const clientId = merchant(request);
      const { object_type, object_id, offset } = request.body;
      // The sandbox has invoices only: a QR or an item has no payments here.
      if (object_type !== 'INVOICE') return { count: 0, paid_amount: 0, rows: [] };
      const invoice = await ownInvoice(clientId, object_id);
      const rows = (await sandboxQpayPayments(deps, invoice.id)).map(paymentAnswer);
      const paid = rows
        .filter((row) => row.payment_status === 'PAID' || row.payment_status === 'PARTIAL')
        .reduce((sum, row) => sum + Number(row.payment_amount), 0);
      const start = (offset.page_number - 1) * offset.page_limit;
      return { count: rows.length, paid_amount: paid, rows: rows.slice(start, start + offset.page_limit) };
    },
  );

  routes.post(
    '/v2/payment/list',
    {
      ...withToken,
      schema: {
        tags,
        summary: 'Payments of an invoice (its QPay id or its invoice code) between two dates (QPay v2)',
        security,
        body: qpayPaymentListRequest,
        response: { 200: qpayPaymentListResponse, ...errors },
      },
    },
    async (request) => {
      const clientId = merchant(request);
      const { object_type, object_id, start_date, end_date, offset } = request.body;
      if (object_type !== 'INVOICE') return { count: 0, rows: [] };
      const rows = await deps.db
        .selectFrom('sandbox_qpay_payments as p')
        .innerJoin('sandbox_qpay_invoices as i', 'i.id', 'p.invoice_id')
        .select([
          'p.payment_id',
          'p.status',
          'p.amount',
          'p.bank',
          'p.created_at',
          'p.invoice_id',
          'i.description',
        ])
        .where('i.client_id', '=', clientId)
        .where((eb) => eb.or([eb('i.id', '=', object_id), eb('i.invoice_code', '=', object_id)]))
        .where('p.created_at', '>=', new Date(start_date))
        .where('p.created_at', '<=', new Date(end_date))
        .orderBy('p.created_at')
        .execute();
      const start = (offset.page_number - 1) * offset.page_limit;
      return {
        count: rows.length,
        rows: rows.slice(start, start + offset.page_limit).map(paymentListAnswer),
      };
    },
  );

  routes.delete(
    '/v2/payment/refund/:id',
    {
      ...withToken,
      schema: {
        tags,
        summary: 'Refund a paid payment whole (QPay v2)',
        security,
        params: idParams,
        body: qpayRefundRequest,
        response: { 200: qpayEmptyResponse, ...errors },
      },
    },
    async (request) => {
      await refundSandboxQpayPayment(deps, merchant(request), request.params.id);
      return {};
    },
  );
}
