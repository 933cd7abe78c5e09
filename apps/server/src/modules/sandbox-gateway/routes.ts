import { createHmac, timingSafeEqual } from 'node:crypto';
import type { FastifyInstance, FastifyReply } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { AppError } from '../../lib/errors.js';
import { type PaymentCallback, SIGNATURE_HEADER, signCallback } from '../premium/callback-signature.js';
import { jsonPostFor } from '../premium/transport.js';
import { judgeCard } from './cards.js';
import { chargeSandboxCard, describeSandboxCard, saveSandboxCard } from './charges.js';
import { cardPage, messagePage } from './pages.js';
import {
  closeSandboxPayment,
  findSandboxPayment,
  openSandboxPayment,
  sandboxPaymentState,
  voidSandboxPayment,
} from './payments.js';
import { refundSandboxPayment } from './refunds.js';
import type { SandboxPaymentStatus } from './tables.js';
import { sandboxTransactions } from './transactions.js';
import './tables.js';

const credentials = { client_id: z.string().max(200), client_secret: z.string().max(500) };

const tokenRequest = z.object({
  ...credentials,
  amount: z.number().int().positive(),
  currency: z.string().regex(/^[A-Z]{3}$/),
  description: z.string().max(500),
  invoice_id: z.string().min(1).max(200),
  redirect_url: z.url(),
  callback_url: z.url().optional(),
  languageCode: z.string().max(8).default('mn'),
  deviceType: z.string().max(20).optional(),
  device: z.string().max(20).optional(),
  payment_type: z.string().max(40).optional(),
  phone: z.string().max(40).optional(),
  email: z.string().max(254).optional(),
  /** Keep the card for later charges (`rest/charge`); the check answers its token once paid. */
  save_card: z.boolean().optional(),
});

const checkRequest = z.object({ ...credentials, invoice_id: z.string().min(1).max(200) });
const checkAnswer = z.object({
  invoice_id: z.string(),
  status: z.enum(['pending', 'paid', 'declined', 'cancelled']),
  amount: z.number().int(),
  currency: z.string(),
  card: z
    .object({ token: z.string(), brand: z.string(), last4: z.string(), expires: z.string() })
    .nullable()
    .optional(),
});
const chargeRequest = z.object({
  ...credentials,
  card_token: z.string().min(1).max(200),
  invoice_id: z.string().min(1).max(200),
  attempt: z.number().int().min(1).max(100),
  amount: z.number().int().positive(),
  currency: z.string().regex(/^[A-Z]{3}$/),
});
const chargeAnswer = z.object({
  invoice_id: z.string(),
  attempt: z.number().int(),
  status: z.enum(['paid', 'declined']),
  amount: z.number().int(),
  currency: z.string(),
  reference: z.string(),
});
const refundRequest = z.object({
  ...credentials,
  invoice_id: z.string().min(1).max(200),
  amount: z.number().int().positive(),
  currency: z.string().regex(/^[A-Z]{3}$/),
  /** The merchant's key for this refund: asked again, it answers the first refund. */
  refund_id: z.string().min(1).max(200),
  /** Which capture: the card page's payment (`session`, the default) or a saved-card charge. */
  reference: z
    .string()
    .regex(/^(session|charge:[1-9]\d{0,2})$/)
    .default('session'),
});
const refundAnswer = z.object({
  invoice_id: z.string(),
  refund_id: z.string(),
  reference: z.string(),
  status: z.literal('refunded'),
  amount: z.number().int(),
  currency: z.string(),
});
const gatewayError = z.object({ error: z.string(), message: z.string() });
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
 * speaks the provider protocol the premium module's adapter uses: `rest/token`, the payment
 * page with `token` and `os`, `rest/check-payment`, and a signed callback to the merchant.
 */
export default async function sandboxGatewayRoutes(app: FastifyInstance) {
  const { deps } = app;
  const { config, clock } = deps;
  const routes = app.withTypeProvider<ZodTypeProvider>();
  const post = jsonPostFor(app, config.PUBLIC_URL);
  /** Ties the card form to its token with the gateway's own secret, so no other page can post it. */
  const formKeyOf = (token: string) =>
    createHmac('sha256', config.SANDBOX_GATEWAY_SECRET).update(`form.${token}`).digest('base64url');

  const assertMerchant = (clientId: string, clientSecret: string) => {
    if (
      !sameSecret(clientId, config.PAYMENT_CLIENT_ID) ||
      !sameSecret(clientSecret, config.PAYMENT_CLIENT_SECRET)
    ) {
      throw new AppError(401, 'invalid_client', 'Unknown client or wrong secret.');
    }
  };

  routes.post(
    '/rest/token',
    {
      schema: {
        tags: ['sandbox gateway'],
        summary: 'Create a payment session (provider protocol)',
        body: tokenRequest,
        response: { 200: z.object({ token: z.string() }), 401: gatewayError, 409: gatewayError },
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
        body: checkRequest,
        response: { 200: checkAnswer, 401: gatewayError, 404: gatewayError },
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
        body: chargeRequest,
        response: { 200: chargeAnswer, 401: gatewayError, 404: gatewayError },
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
        body: refundRequest,
        response: { 200: refundAnswer, 401: gatewayError, 404: gatewayError, 409: gatewayError },
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
        body: checkRequest,
        response: {
          200: z.object({ invoice_id: z.string(), status: z.literal('cancelled') }),
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
        body: checkRequest,
        response: { 200: z.looseObject({ invoice_id: z.string() }), 401: gatewayError },
      },
    },
    async (request) => {
      assertMerchant(request.body.client_id, request.body.client_secret);
      return sandboxTransactions(deps, request.body.client_id, request.body.invoice_id);
    },
  );

  const findPayment = (token: string) => findSandboxPayment(deps, token);

  const html = (reply: FastifyReply, status: number, page: string) =>
    reply.code(status).header('cache-control', 'no-store').type('text/html; charset=utf-8').send(page);

  routes.get(
    '/payment',
    {
      schema: {
        tags: ['sandbox gateway'],
        summary: 'The card form the shopper sees',
        querystring: z.object({ token: z.string().max(200), os: z.string().max(20).optional() }),
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

  /** Closes a pending payment once, tells the merchant by signed callback, returns the shopper. */
  const finish = async (
    reply: FastifyReply,
    token: string,
    status: Exclude<SandboxPaymentStatus, 'pending'>,
    card: { last4: string; number: string; expires: string } | null,
  ) => {
    const payment = await findPayment(token);
    const cardToken =
      payment?.save_card && status === 'paid' && card
        ? await saveSandboxCard(deps, payment.client_id, card)
        : null;
    const closed = await closeSandboxPayment(deps, token, status, card?.last4 ?? null, cardToken);
    if (!closed) return closedPage(reply, (await findPayment(token))?.redirect_url);
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
      return finish(reply, payment.token, outcome.status, outcome);
    },
  );

  routes.post(
    '/payment/cancel',
    { schema: { tags: ['sandbox gateway'], summary: 'Leave the payment unpaid (form post)' } },
    async (request, reply) => {
      const read = await readForm(request.body, reply);
      if (!read) return reply;
      return finish(reply, read.payment.token, 'cancelled', null);
    },
  );
}
