import { createHmac, timingSafeEqual } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import { ProviderRefusal } from '@tunes/server/lib/errors';
import {
  type PaymentCallback,
  SIGNATURE_HEADER,
  signCallback,
} from '@tunes/server/modules/providers/callback-signature';
import {
  gatewayChargeAnswerSchema,
  gatewayChargeRequestSchema,
  gatewayCheckAnswerSchema,
  gatewayErrorSchema as gatewayError,
  gatewayInvoiceRequestSchema,
  gatewayPageQuerySchema,
  gatewayRefundAnswerSchema,
  gatewayRefundRequestSchema,
  gatewayTokenAnswerSchema,
  gatewayTokenRequestSchema,
  gatewayTransactionsAnswerSchema,
  gatewayVoidAnswerSchema,
} from '@tunes/server/modules/providers/gateway-contract';
import type { FastifyInstance, FastifyReply } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { hasZodFastifySchemaValidationErrors } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { cardSessionRoutes } from './card-sessions.js';
import { judgeCard } from './cards.js';
import { chargeSandboxCard, describeSandboxCard, saveSandboxCard } from './charges.js';
import { GATEWAY_CALLS, orderGatewayFaults, takeGatewayFault } from './faults.js';
import { cardPage, messagePage } from './pages.js';
import {
  closeSandboxPayment,
  findSandboxPayment,
  openSandboxPayment,
  type SandboxPayment,
  sandboxPaymentState,
  voidSandboxPayment,
} from './payments.js';
import { refundSandboxPayment } from './refunds.js';
import type { SandboxPaymentStatus } from './tables.js';
import { sandboxTransactions } from './transactions.js';
import './tables.js';

const formFields = z.object({
  token: z.string().max(200).default(''),
  form_key: z.string().max(200).default(''),
  card_number: z.string().max(40).optional(),
  expiry: z.string().max(10).optional(),
  cvc: z.string().max(8).optional(),
});

function sameSecret(given: string, expected: string): boolean {
  const a = Buffer.from(given);
  const b = Buffer.from(expected);
  return a.length === b.length && timingSafeEqual(a, b);
}

/**
 * The built-in card gateway stand-in (product.md §10), mounted at /sandbox-gateway outside /api. It
 * speaks the provider protocol the server's adapter uses (providers/card-gateway.ts): `rest/token`, the payment
 * page with `token` and `os`, `rest/check-payment`, and a signed callback to the merchant.
 */
export default async function sandboxGatewayRoutes(app: FastifyInstance) {
  const { deps } = app;
  const { config, clock } = deps;
  const routes = app.withTypeProvider<ZodTypeProvider>();
  // The merchant's callback: to our own server in process, anywhere else over the network.
  const { post } = deps.transport;
  /** Ties the card form to its token with the gateway's own secret, so no other page can post it. */
  const formKeyOf = (token: string) =>
    createHmac('sha256', config.SANDBOX_GATEWAY_SECRET).update(`form.${token}`).digest('base64url');

  const assertMerchant = (clientId: string, clientSecret: string) => {
    if (
      !sameSecret(clientId, config.PAYMENT_CLIENT_ID) ||
      !sameSecret(clientSecret, config.PAYMENT_CLIENT_SECRET)
    ) {
      throw new ProviderRefusal(401, 'invalid_client', 'Unknown client or wrong secret.');
    }
  };

  // Bad input is refused in the gateway's own shape, `{ error, message }`; the rest as the app does.
  app.setErrorHandler((error, _request, reply) => {
    if (!hasZodFastifySchemaValidationErrors(error)) throw error;
    const [first] = error.validation;
    const field =
      first?.instancePath.replace(/^\//, '').replaceAll('/', '.') || (error.validationContext ?? 'body');
    return reply
      .code(400)
      .send({ error: 'invalid_request', message: `${field}: ${first?.message ?? 'is invalid'}` });
  });

  // Faults the tests ordered (`POST /test/faults`): an outage, a server error, or only slow.
  app.addHook('onRequest', async (request, reply) => {
    const call = /\/rest\/([a-z-]+)$/.exec(request.url.split('?')[0] ?? '')?.[1];
    if (!call || !(GATEWAY_CALLS as readonly string[]).includes(call) || call === '*') return;
    const fault = await takeGatewayFault(deps, call as Exclude<(typeof GATEWAY_CALLS)[number], '*'>);
    if (fault?.delay_ms) await sleep(fault.delay_ms);
    if (fault?.kind === 'unavailable') {
      return reply
        .code(503)
        .send({ error: 'unavailable', message: 'The sandbox gateway is down (an ordered outage).' });
    }
    if (fault?.kind === 'error') {
      return reply
        .code(500)
        .send({ error: 'server_error', message: 'The sandbox gateway failed (an ordered error).' });
    }
  });

  routes.post(
    '/test/faults',
    {
      schema: {
        tags: ['sandbox gateway'],
        summary: 'Make the next n calls of one provider call (or any) fail or be slow (tests)',
        body: z.object({
          call: z.enum(GATEWAY_CALLS).default('*'),
          count: z.number().int().min(0).max(100),
          /** `unavailable` 503, `error` 500, `slow` only the delay. */
          kind: z.enum(['unavailable', 'error', 'slow']).default('unavailable'),
          delayMs: z.number().int().min(0).max(15_000).default(0),
        }),
        response: { 204: z.null() },
      },
    },
    async (request, reply) => {
      await orderGatewayFaults(deps, request.body);
      return reply.code(204).send(null);
    },
  );

  routes.post(
    '/rest/token',
    {
      schema: {
        tags: ['sandbox gateway'],
        summary: 'Create a payment session (provider protocol)',
        body: gatewayTokenRequestSchema,
        response: { 200: gatewayTokenAnswerSchema, 400: gatewayError, 401: gatewayError, 409: gatewayError },
      },
    },
    async (request) => {
      assertMerchant(request.body.client_id, request.body.client_secret);
      return { token: await openSandboxPayment(deps, request.body) };
    },
  );

  routes.post(
    '/rest/check-payment',
    {
      schema: {
        tags: ['sandbox gateway'],
        summary: 'The state of an invoice (provider protocol)',
        body: gatewayInvoiceRequestSchema,
        response: { 200: gatewayCheckAnswerSchema, 400: gatewayError, 401: gatewayError, 404: gatewayError },
      },
    },
    async (request) => {
      assertMerchant(request.body.client_id, request.body.client_secret);
      const state = await sandboxPaymentState(deps, request.body.client_id, request.body.invoice_id);
      const card =
        state.status === 'paid' && state.card_token
          ? await describeSandboxCard(deps, request.body.client_id, state.card_token)
          : null;
      return {
        invoice_id: state.invoice_id,
        status: state.status,
        amount: state.amount,
        currency: state.currency,
        card,
      };
    },
  );

  routes.post(
    '/rest/charge',
    {
      schema: {
        tags: ['sandbox gateway'],
        summary: 'Charge a saved card for an invoice (idempotent per invoice and attempt)',
        body: gatewayChargeRequestSchema,
        response: { 200: gatewayChargeAnswerSchema, 400: gatewayError, 401: gatewayError, 404: gatewayError },
      },
    },
    async (request) => {
      const { body } = request;
      assertMerchant(body.client_id, body.client_secret);
      return chargeSandboxCard(deps, {
        clientId: body.client_id,
        cardToken: body.card_token,
        invoiceId: body.invoice_id,
        attempt: body.attempt,
        amount: body.amount,
        currency: body.currency,
      });
    },
  );

  routes.post(
    '/rest/refund',
    {
      schema: {
        tags: ['sandbox gateway'],
        summary: 'Refund all or part of a capture (once per refund_id; provider protocol)',
        body: gatewayRefundRequestSchema,
        response: {
          200: gatewayRefundAnswerSchema,
          400: gatewayError,
          401: gatewayError,
          404: gatewayError,
          409: gatewayError,
        },
      },
    },
    async (request) => {
      const { body } = request;
      assertMerchant(body.client_id, body.client_secret);
      return refundSandboxPayment(deps, {
        clientId: body.client_id,
        invoiceId: body.invoice_id,
        refundId: body.refund_id,
        reference: body.reference,
        amount: body.amount,
        currency: body.currency,
      });
    },
  );

  routes.post(
    '/rest/void',
    {
      schema: {
        tags: ['sandbox gateway'],
        summary: "Close an invoice's unpaid payment session (provider protocol)",
        body: gatewayInvoiceRequestSchema,
        response: {
          200: gatewayVoidAnswerSchema,
          400: gatewayError,
          401: gatewayError,
          404: gatewayError,
          409: gatewayError,
        },
      },
    },
    async (request) => {
      assertMerchant(request.body.client_id, request.body.client_secret);
      return voidSandboxPayment(deps, request.body.client_id, request.body.invoice_id);
    },
  );

  routes.post(
    '/rest/transactions',
    {
      schema: {
        tags: ['sandbox gateway'],
        summary: "An invoice's payment session, charges and refunds (read-only; provider protocol)",
        body: gatewayInvoiceRequestSchema,
        response: { 200: gatewayTransactionsAnswerSchema, 400: gatewayError, 401: gatewayError },
      },
    },
    async (request) => {
      assertMerchant(request.body.client_id, request.body.client_secret);
      return sandboxTransactions(deps, request.body.client_id, request.body.invoice_id);
    },
  );

  // The save-card flow without a charge (a card on file replaced between payments).
  cardSessionRoutes(app, assertMerchant);

  const findPayment = (token: string) => findSandboxPayment(deps, token);

  const html = (reply: FastifyReply, status: number, page: string) =>
    reply.code(status).header('cache-control', 'no-store').type('text/html; charset=utf-8').send(page);

  routes.get(
    '/payment',
    {
      schema: {
        tags: ['sandbox gateway'],
        summary: 'The card form the shopper sees',
        querystring: gatewayPageQuerySchema,
      },
    },
    async (request, reply) => {
      const payment = await findPayment(request.query.token);
      if (!payment)
        return html(reply, 404, messagePage('Payment not found', 'This payment session does not exist.'));
      if (payment.status !== 'pending') return closedPage(reply, payment.redirect_url);
      return html(
        reply,
        200,
        cardPage({
          token: payment.token,
          formKey: formKeyOf(payment.token),
          description: payment.description,
          amount: payment.amount,
          currency: payment.currency,
          languageCode: payment.language_code,
        }),
      );
    },
  );

  const closedPage = (reply: FastifyReply, backUrl?: string) =>
    html(reply, 409, messagePage('Payment closed', 'This payment is already finished.', backUrl));

  /**
   * Closes a pending payment (as the form read it) once, tells the merchant by signed callback,
   * returns the shopper.
   */
  const finish = async (
    reply: FastifyReply,
    payment: SandboxPayment,
    status: Exclude<SandboxPaymentStatus, 'pending'>,
    card: { last4: string; number: string; expires: string } | null,
  ) => {
    const cardToken =
      payment.save_card && status === 'paid' && card
        ? await saveSandboxCard(deps, payment.client_id, card)
        : null;
    const closed = await closeSandboxPayment(deps, payment.token, status, card?.last4 ?? null, cardToken);
    if (!closed) return closedPage(reply, payment.redirect_url);
    if (closed.callback_url) {
      const callback: PaymentCallback = {
        invoice_id: closed.invoice_id,
        status,
        amount: closed.amount,
        currency: closed.currency,
        timestamp: Math.floor(clock.now().getTime() / 1000),
      };
      try {
        const answer = await post(closed.callback_url, callback, {
          [SIGNATURE_HEADER]: signCallback(config.PAYMENT_CALLBACK_SECRET, callback),
        });
        if (answer.status >= 300)
          app.log.warn({ status: answer.status }, 'sandbox gateway: callback refused');
      } catch (error) {
        // The merchant's periodic check covers a lost callback.
        app.log.warn({ err: error }, 'sandbox gateway: callback failed');
      }
    }
    return reply.redirect(closed.redirect_url, 303);
  };

  const readForm = async (body: unknown, reply: FastifyReply) => {
    const form = formFields.safeParse(body ?? {});
    const fields = form.success ? form.data : { token: '', form_key: '' };
    const payment = fields.token ? await findPayment(fields.token) : undefined;
    if (!payment || !sameSecret(fields.form_key, formKeyOf(payment.token))) {
      await html(
        reply,
        400,
        messagePage('Payment not found', 'This payment form is not valid. Start the payment again.'),
      );
      return null;
    }
    return { fields, payment };
  };

  routes.post(
    '/payment/pay',
    { schema: { tags: ['sandbox gateway'], summary: 'Pay with a test card (form post)' } },
    async (request, reply) => {
      const read = await readForm(request.body, reply);
      if (!read) return reply;
      const { fields, payment } = read;
      if (payment.status !== 'pending') return closedPage(reply, payment.redirect_url);
      const outcome = judgeCard(fields, clock.now());
      if (!outcome.ok) {
        return html(
          reply,
          400,
          cardPage({
            token: payment.token,
            formKey: formKeyOf(payment.token),
            description: payment.description,
            amount: payment.amount,
            currency: payment.currency,
            languageCode: payment.language_code,
            error: outcome.error,
          }),
        );
      }
      return finish(reply, payment, outcome.status, outcome);
    },
  );

  routes.post(
    '/payment/cancel',
    { schema: { tags: ['sandbox gateway'], summary: 'Leave the payment unpaid (form post)' } },
    async (request, reply) => {
      const read = await readForm(request.body, reply);
      if (!read) return reply;
      return finish(reply, read.payment, 'cancelled', null);
    },
  );
}
