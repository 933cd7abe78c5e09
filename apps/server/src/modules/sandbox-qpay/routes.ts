import { createHmac, timingSafeEqual } from 'node:crypto';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { AppError } from '../../lib/errors.js';
import { qrPngBase64 } from '../../lib/qr-image.js';
import { jsonCallFor } from '../premium/transport.js';
import { bankLogoSvg, findBank, SANDBOX_BANKS, type SandboxBank } from './banks.js';
import {
  answerSandboxQpayInvoice,
  cancelSandboxQpayInvoice,
  createSandboxQpayInvoice,
  findSandboxQpayInvoice,
  issueSandboxTokens,
  refundSandboxQpayPayment,
  sandboxQpayPayments,
  tokenOwner,
} from './invoices.js';
import { bankPage, messagePage, scanPage } from './pages.js';
import './tables.js';

const qpayError = z.object({ error: z.string(), message: z.string() });
const invoiceRequest = z.object({
  invoice_code: z.string().min(1).max(100),
  sender_invoice_no: z.string().min(1).max(100),
  invoice_receiver_code: z.string().min(1).max(100),
  invoice_description: z.string().min(1).max(255),
  amount: z.number().int().positive().max(100_000_000),
  callback_url: z.url().max(500),
});
const checkRequest = z.object({
  object_type: z.literal('INVOICE'),
  object_id: z.string().min(1).max(100),
  offset: z
    .object({ page_number: z.number().int().min(1), page_limit: z.number().int().min(1).max(100) })
    .optional(),
});
const idParams = z.object({ id: z.string().min(1).max(100) });
const refundRequest = z
  .object({ callback_url: z.url().max(500).optional(), note: z.string().max(255).optional() })
  .nullish();
const bankForm = z.object({
  invoice: z.string().max(100).default(''),
  form_key: z.string().max(200).default(''),
});

function sameSecret(given: string, expected: string): boolean {
  const a = Buffer.from(given);
  const b = Buffer.from(expected);
  return a.length === b.length && timingSafeEqual(a, b);
}

const bearer = (header: string | undefined) => /^Bearer (\S{8,500})$/.exec(header ?? '')?.[1];

/**
 * The built-in QPay stand-in (product.md §12), mounted at /sandbox-qpay outside /api and never in
 * production. It speaks the merchant API v2 the QPay adapter uses — `auth/token` with Basic client
 * credentials, `auth/refresh`, `invoice` (with a real QR image and bank-app links), `invoice/{id}`
 * to read or cancel, `payment/check`, `payment/refund/{id}` — and has the pages a shopper's phone shows: the QR's scan
 * page listing bank apps, and each bank app's screen to approve or decline. An approval calls
 * the merchant's callback URL, unsigned, as QPay does.
 */
export default async function sandboxQpayRoutes(app: FastifyInstance) {
  const { deps } = app;
  const { config } = deps;
  const routes = app.withTypeProvider<ZodTypeProvider>();
  const call = jsonCallFor(app, config.PUBLIC_URL);
  const base = `${config.PUBLIC_URL}/sandbox-qpay`;
  const scanUrl = (id: string) => `${base}/pay/${id}`;
  const bankUrl = (bank: SandboxBank, id: string) =>
    `${base}/bank/${bank.id}?${new URLSearchParams({ invoice: id }).toString()}`;
  const formKeyOf = (id: string) =>
    createHmac('sha256', config.SANDBOX_GATEWAY_SECRET).update(`qpay.${id}`).digest('base64url');
  const refuse = (message = 'The access token is missing, unknown or expired.') =>
    new AppError(401, 'AUTHENTICATION_FAILED', message);

  /** The merchant of each request's access token, checked before its body is read. */
  const merchants = new WeakMap<FastifyRequest, string>();
  const requireToken = async (request: FastifyRequest) => {
    const token = bearer(request.headers.authorization);
    const clientId = token ? await tokenOwner(deps, token, 'access') : undefined;
    if (!clientId) throw refuse();
    merchants.set(request, clientId);
  };
  const merchant = (request: FastifyRequest) => {
    const clientId = merchants.get(request);
    if (!clientId) throw refuse();
    return clientId;
  };
  const withToken = { onRequest: requireToken } as const;
  const bearerSecurity = [{ bearer: [] }];
  const ownInvoice = async (clientId: string, id: string) => {
    const invoice = await findSandboxQpayInvoice(deps, id);
    if (!invoice || invoice.client_id !== clientId) {
      throw new AppError(404, 'INVOICE_NOTFOUND', 'No such invoice.');
    }
    return invoice;
  };

  routes.post(
    '/v2/auth/token',
    {
      schema: {
        tags: ['sandbox qpay'],
        summary: 'An access token for HTTP Basic client credentials (QPay v2)',
        security: [{ basic: [] }],
        response: { 200: z.looseObject({ access_token: z.string() }), 401: qpayError },
      },
    },
    async (request) => {
      const basic = /^Basic ([A-Za-z0-9+/=]{4,1000})$/.exec(request.headers.authorization ?? '')?.[1];
      const [clientId = '', secret = ''] = Buffer.from(basic ?? '', 'base64')
        .toString('utf8')
        .split(':');
      if (!sameSecret(clientId, config.QPAY_CLIENT_ID) || !sameSecret(secret, config.QPAY_CLIENT_SECRET)) {
        throw refuse('Unknown client or wrong secret.');
      }
      return issueSandboxTokens(deps, clientId);
    },
  );

  routes.post(
    '/v2/auth/refresh',
    {
      schema: {
        tags: ['sandbox qpay'],
        summary: 'A new access token for a refresh token (QPay v2)',
        security: bearerSecurity,
        response: { 200: z.looseObject({ access_token: z.string() }), 401: qpayError },
      },
    },
    async (request) => {
      const token = bearer(request.headers.authorization);
      const clientId = token ? await tokenOwner(deps, token, 'refresh') : undefined;
      if (!token || !clientId) throw refuse('The refresh token is unknown or expired.');
      return issueSandboxTokens(deps, clientId, token);
    },
  );

  routes.post(
    '/v2/invoice',
    {
      ...withToken,
      schema: {
        tags: ['sandbox qpay'],
        summary: 'Create an invoice: its QR (text and PNG), short link and bank-app links (QPay v2)',
        security: bearerSecurity,
        body: invoiceRequest,
        response: { 200: z.looseObject({ invoice_id: z.string() }), 400: qpayError, 401: qpayError },
      },
    },
    async (request) => {
      const clientId = merchant(request);
      const { body } = request;
      if (body.invoice_code !== config.QPAY_INVOICE_CODE) {
        throw new AppError(400, 'INVOICE_CODE_INVALID', 'Unknown invoice code.');
      }
      const id = await createSandboxQpayInvoice(deps, {
        clientId,
        invoiceCode: body.invoice_code,
        senderInvoiceNo: body.sender_invoice_no,
        receiverCode: body.invoice_receiver_code,
        description: body.invoice_description,
        amount: body.amount,
        callbackUrl: body.callback_url,
      });
      // The QR opens the scan page, so a phone that scans it reaches the sandbox's bank apps.
      const qrText = scanUrl(id);
      return {
        invoice_id: id,
        qr_text: qrText,
        qr_image: await qrPngBase64(qrText),
        qPay_shortUrl: qrText,
        urls: SANDBOX_BANKS.map((bank) => ({
          name: bank.name,
          description: bank.description,
          logo: `${base}/logos/${bank.id}.svg`,
          link: bankUrl(bank, id),
        })),
      };
    },
  );

  routes.get(
    '/v2/invoice/:id',
    {
      ...withToken,
      schema: {
        tags: ['sandbox qpay'],
        summary: 'An invoice and its state (QPay v2)',
        security: bearerSecurity,
        params: idParams,
        response: { 200: z.looseObject({ invoice_status: z.string() }), 401: qpayError, 404: qpayError },
      },
    },
    async (request) => {
      const invoice = await ownInvoice(merchant(request), request.params.id);
      return {
        invoice_id: invoice.id,
        invoice_status: invoice.status,
        sender_invoice_no: invoice.sender_invoice_no,
        invoice_description: invoice.description,
        total_amount: invoice.amount,
        callback_url: invoice.callback_url,
      };
    },
  );

  routes.delete(
    '/v2/invoice/:id',
    {
      ...withToken,
      schema: {
        tags: ['sandbox qpay'],
        summary: 'Cancel an unpaid invoice (QPay v2)',
        security: bearerSecurity,
        params: idParams,
        response: { 200: z.object({}), 400: qpayError, 401: qpayError, 404: qpayError },
      },
    },
    async (request) => {
      const invoice = await ownInvoice(merchant(request), request.params.id);
      const status = await cancelSandboxQpayInvoice(deps, invoice.id);
      if (status === 'PAID') throw new AppError(400, 'INVOICE_PAID', 'A paid invoice cannot be cancelled.');
      return {};
    },
  );

  routes.post(
    '/v2/payment/check',
    {
      ...withToken,
      schema: {
        tags: ['sandbox qpay'],
        summary: "An invoice's payments (QPay v2)",
        security: bearerSecurity,
        body: checkRequest,
        response: { 200: z.looseObject({ count: z.number() }), 401: qpayError, 404: qpayError },
      },
    },
    async (request) => {
      const invoice = await ownInvoice(merchant(request), request.body.object_id);
      const rows = await sandboxQpayPayments(deps, invoice.id);
      const paid = rows.filter((row) => row.status === 'PAID').reduce((sum, row) => sum + row.amount, 0);
      return {
        count: rows.length,
        paid_amount: paid,
        rows: rows.map((row) => ({
          payment_id: row.payment_id,
          payment_status: row.status,
          payment_date: row.created_at.toISOString(),
          payment_fee: '0.00',
          payment_amount: `${row.amount}.00`,
          payment_currency: 'MNT',
          payment_wallet: row.bank,
          transaction_type: 'P2P',
        })),
      };
    },
  );

  routes.delete(
    '/v2/payment/refund/:id',
    {
      ...withToken,
      schema: {
        tags: ['sandbox qpay'],
        summary: 'Refund a paid payment whole (QPay v2)',
        security: bearerSecurity,
        params: idParams,
        body: refundRequest,
        response: { 200: z.object({}), 400: qpayError, 401: qpayError, 404: qpayError },
      },
    },
    async (request) => {
      await refundSandboxQpayPayment(deps, merchant(request), request.params.id);
      return {};
    },
  );

  const html = (reply: FastifyReply, status: number, page: string) =>
    reply.code(status).header('cache-control', 'no-store').type('text/html; charset=utf-8').send(page);
  const notFoundPage = (reply: FastifyReply) =>
    html(reply, 404, messagePage('Invoice not found', 'This QPay invoice does not exist.'));
  const closedPage = (reply: FastifyReply, status: string) =>
    html(
      reply,
      409,
      messagePage(
        'Invoice closed',
        status === 'PAID' ? 'This invoice is already paid.' : 'This invoice was cancelled.',
      ),
    );

  routes.get(
    '/pay/:id',
    { schema: { tags: ['sandbox qpay'], summary: 'What the QR opens: the bank apps', params: idParams } },
    async (request, reply) => {
      const invoice = await findSandboxQpayInvoice(deps, request.params.id);
      if (!invoice) return notFoundPage(reply);
      if (invoice.status !== 'OPEN') return closedPage(reply, invoice.status);
      return html(
        reply,
        200,
        scanPage(invoice, (bank) => bankUrl(bank, invoice.id)),
      );
    },
  );

  routes.get(
    '/bank/:bank',
    {
      schema: {
        tags: ['sandbox qpay'],
        summary: "A bank app's screen for an invoice: approve or decline",
        params: z.object({ bank: z.string().max(40) }),
        querystring: z.object({ invoice: z.string().max(100) }),
      },
    },
    async (request, reply) => {
      const bank = findBank(request.params.bank);
      const invoice = await findSandboxQpayInvoice(deps, request.query.invoice);
      if (!bank || !invoice) return notFoundPage(reply);
      if (invoice.status !== 'OPEN') return closedPage(reply, invoice.status);
      return html(reply, 200, bankPage(bank, invoice, formKeyOf(invoice.id)));
    },
  );

  const answer =
    (approve: boolean) =>
    async (request: { params: { bank: string }; body: unknown }, reply: FastifyReply) => {
      const bank = findBank(request.params.bank);
      const form = bankForm.safeParse(request.body ?? {});
      const fields = form.success ? form.data : { invoice: '', form_key: '' };
      const invoice = fields.invoice ? await findSandboxQpayInvoice(deps, fields.invoice) : undefined;
      if (!bank || !invoice || !sameSecret(fields.form_key, formKeyOf(invoice.id)))
        return notFoundPage(reply);
      if (invoice.status !== 'OPEN') return closedPage(reply, invoice.status);
      const paid = await answerSandboxQpayInvoice(deps, invoice.id, bank.id, approve);
      if (!approve) {
        return html(
          reply,
          200,
          messagePage('Payment declined', 'You declined the payment. Nothing was charged.'),
        );
      }
      if (!paid) return closedPage(reply, 'PAID');
      try {
        const callback = await call({ method: 'GET', url: paid.callback_url });
        if (callback.status >= 300)
          app.log.warn({ status: callback.status }, 'sandbox qpay: callback refused');
      } catch (error) {
        // The merchant's periodic check covers a lost callback.
        app.log.warn({ err: error }, 'sandbox qpay: callback failed');
      }
      return html(reply, 200, messagePage('Payment approved', 'Paid. You can return to the shop.'));
    };
  const bankParams = z.object({ bank: z.string().max(40) });
  routes.post(
    '/bank/:bank/approve',
    { schema: { tags: ['sandbox qpay'], summary: 'Approve the payment (form post)', params: bankParams } },
    answer(true),
  );
  routes.post(
    '/bank/:bank/decline',
    { schema: { tags: ['sandbox qpay'], summary: 'Decline the payment (form post)', params: bankParams } },
    answer(false),
  );

  routes.get(
    '/logos/:file',
    {
      schema: {
        tags: ['sandbox qpay'],
        summary: "A bank's logo",
        params: z.object({ file: z.string().regex(/^[a-z]{1,20}\.svg$/) }),
      },
    },
    async (request, reply) => {
      const bank = findBank(request.params.file.replace(/\.svg$/, ''));
      if (!bank) return reply.code(404).send({ error: 'not_found', message: 'No such logo.' });
      return reply
        .header('cache-control', 'public, max-age=86400')
        .type('image/svg+xml')
        .send(bankLogoSvg(bank));
    },
  );
}
