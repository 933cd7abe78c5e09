import { createHmac, timingSafeEqual } from 'node:crypto';
import type { FastifyInstance, FastifyReply } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { bankLogoSvg, findBank, type SandboxBank } from './banks.js';
import { orderQpayFaults, qpayFaultsRequest, takeApprovalOutcome } from './faults.js';
import { answerSandboxQpayInvoice, findSandboxQpayInvoice } from './invoices.js';
import sandboxQpayMerchantApi from './merchant-api.js';
import { bankPage, messagePage, scanPage } from './pages.js';
import './tables.js';

const idParams = z.object({ id: z.string().min(1).max(100) });
const bankForm = z.object({
  invoice: z.string().max(100).default(''),
  form_key: z.string().max(200).default(''),
});

function sameSecret(given: string, expected: string): boolean {
  const a = Buffer.from(given);
  const b = Buffer.from(expected);
  return a.length === b.length && timingSafeEqual(a, b);
}

/**
 * The built-in QPay stand-in (product.md §12), mounted at /sandbox-qpay outside /api and never in
 * production: the merchant API v2 as strict as QPay's description (merchant-api.ts), the pages a
 * shopper's phone shows (the QR's scan page listing bank apps, each bank app's screen to approve
 * or decline), and `POST /test/faults` for tests (faults.ts). An approval calls the merchant's
 * callback URL, unsigned, as QPay does.
 */
export default async function sandboxQpayRoutes(app: FastifyInstance) {
  const { deps } = app;
  const { config } = deps;
  const routes = app.withTypeProvider<ZodTypeProvider>();
  const { call } = deps.transport;
  const base = `${config.PUBLIC_URL}/sandbox-qpay`;
  const scanUrl = (id: string) => `${base}/pay/${id}`;
  const bankUrl = (bank: SandboxBank, id: string) =>
    `${base}/bank/${bank.id}?${new URLSearchParams({ invoice: id }).toString()}`;
  const formKeyOf = (id: string) =>
    createHmac('sha256', config.SANDBOX_GATEWAY_SECRET).update(`qpay.${id}`).digest('base64url');

  await app.register(sandboxQpayMerchantApi, { scanUrl, bankUrl });

  routes.post(
    '/test/faults',
    {
      schema: {
        tags: ['sandbox qpay'],
        summary:
          'Make the next n merchant-API calls fail or be slow, or order how the next approval is recorded (tests)',
        body: qpayFaultsRequest,
        response: { 204: z.null() },
      },
    },
    async (request, reply) => {
      await orderQpayFaults(deps, request.body);
      return reply.code(204).send(null);
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
      const outcome = approve ? await takeApprovalOutcome(deps) : { status: 'FAILED' as const };
      const recorded = await answerSandboxQpayInvoice(deps, invoice.id, bank.id, outcome);
      if (!approve) {
        return html(
          reply,
          200,
          messagePage('Payment declined', 'You declined the payment. Nothing was charged.'),
        );
      }
      if (!recorded) return closedPage(reply, 'PAID');
      try {
        const callback = await call({ method: 'GET', url: recorded.callback_url });
        if (callback.status >= 300)
          app.log.warn({ status: callback.status }, 'sandbox qpay: callback refused');
      } catch (error) {
        // The merchant's periodic check covers a lost callback.
        app.log.warn({ err: error }, 'sandbox qpay: callback failed');
      }
      return html(
        reply,
        200,
        outcome.status === 'PAID'
          ? messagePage('Payment approved', 'Paid. You can return to the shop.')
          : messagePage('Payment recorded', `The bank recorded this payment as ${outcome.status}.`),
      );
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
