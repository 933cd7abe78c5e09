import { checkoutRequestSchema, paymentStatusSchema, qpayCheckoutSchema } from '@tunes/shared/billing';
import { errorBodySchema } from '@tunes/shared/errors';
import {
  allPlansQuerySchema,
  cacheItemSchema,
  checkoutResponseSchema,
  invoiceSchema,
  merchantSchema,
  planSchema,
  subscriptionsQuerySchema,
} from '@tunes/shared/premium';
import { subscriptionSchema } from '@tunes/shared/profile';
import type { FastifyInstance, FastifyReply } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { AnswerCache, revisionEvery, sendCachedAnswer } from '../../lib/answer-cache.js';
import { notFound } from '../../lib/errors.js';
import { assertSelf } from '../../plugins/auth.js';
import { SIGNATURE_HEADER } from '../providers/callback-signature.js';
import { QPAY_CALLBACK_ANSWER } from '../providers/qpay-contract.js';
import { saveCacheItem } from './cache-item.js';
import { checkout } from './checkout.js';
import { paymentStatus, receiveQpayCallback, viewInvoice } from './invoice-view.js';
import { receivePaymentCallback } from './payment-callback.js';
import { listMerchantPlans, listMerchants } from './plans.js';
import { settleInvoice } from './settlement.js';
import { cancelAutoRenew, listSubscriptions } from './subscriptions.js';
import './tables.js';

const errors = { 400: errorBodySchema, 401: errorBodySchema, 403: errorBodySchema, 404: errorBodySchema };
const subParams = z.object({ sub: z.uuid() });
const invoiceIdSchema = z.string().trim().min(1).max(200);
const allPlansSchema = z.array(planSchema);
/** How long a process answers a merchant's plans from memory before reading them again. */
const PLANS_MAX_AGE_MS = 60_000;

/**
 * Premium (product.md §2 /premium, §4 plan purchase, §7): merchants and plans, checkout through the
 * gateway adapter, the shopper's return, the provider's signed callback, the periodic check of
 * pending invoices, cancelling auto-renew, and the cache item call.
 */
export default async function premiumRoutes(app: FastifyInstance) {
  const { deps } = app;
  const routes = app.withTypeProvider<ZodTypeProvider>();

  routes.get(
    '/merchants',
    {
      schema: {
        tags: ['premium'],
        summary: 'Merchants selling plans',
        response: { 200: z.array(merchantSchema) },
      },
    },
    () => listMerchants(deps),
  );

  // Plans change only through `catalog:import` and the console's plan calls, so each process keeps
  // a merchant's answer, serialized and compressed, and reads it again at the turn of each minute
  // (its revision, looked at once a second): a change shows within a minute. The call cost ~5× a
  // cached answer's CPU, most of it compressing the same bytes again (decision 0024).
  const nowMs = () => deps.clock.now().getTime();
  const plans = new AnswerCache(revisionEvery(PLANS_MAX_AGE_MS, nowMs), nowMs, 1000);

  routes.get(
    '/packages/allplans',
    {
      compress: false,
      schema: {
        tags: ['premium'],
        summary: "A merchant's plans (the site lists the MNT premium, duo and family ones)",
        querystring: allPlansQuerySchema,
        response: { 200: allPlansSchema, ...errors },
      },
    },
    async (request, reply) => {
      const { merchantId } = request.query;
      const answer = await plans.get(String(merchantId), async () =>
        allPlansSchema.parse(await listMerchantPlans(deps, merchantId)),
      );
      return sendCachedAnswer(request, reply, answer);
    },
  );

  routes.get(
    '/users/:sub/subscriptions',
    {
      onRequest: app.authenticate,
      schema: {
        tags: ['premium'],
        summary: "The signed-in user's subscriptions",
        params: subParams,
        querystring: subscriptionsQuerySchema,
        response: { 200: z.array(subscriptionSchema), ...errors },
      },
    },
    async (request) => {
      assertSelf(request, request.params.sub);
      return listSubscriptions(deps, request.userId, request.query.IsFutureActive);
    },
  );

  routes.post(
    '/users/:sub/subscriptions/:subscriptionId/cancel',
    {
      onRequest: app.authenticate,
      schema: {
        tags: ['premium'],
        summary: 'Cancel Premium: auto-renew off, access to the end of the period',
        params: subParams.extend({ subscriptionId: z.uuid() }),
        response: { 200: subscriptionSchema, ...errors },
      },
    },
    async (request) => {
      assertSelf(request, request.params.sub);
      return cancelAutoRenew(deps, request.userId, request.params.subscriptionId);
    },
  );

  routes.post(
    '/payments/checkout',
    {
      onRequest: app.authenticate,
      schema: {
        tags: ['premium'],
        summary:
          'Start a payment for a plan: card (answers the gateway page) or QPay (answers the QR and bank-app links)',
        body: checkoutRequestSchema,
        response: {
          200: z.union([checkoutResponseSchema, qpayCheckoutSchema]),
          ...errors,
          409: errorBodySchema,
          429: errorBodySchema,
          502: errorBodySchema,
          503: errorBodySchema,
        },
      },
    },
    (request) => checkout(deps, request.userId, request.body),
  );

  routes.get(
    '/payments/return',
    {
      schema: {
        tags: ['premium'],
        summary:
          'Where the gateway sends the shopper back; confirms with the provider, then /success or /failed',
        querystring: z.object({ invoiceId: invoiceIdSchema }),
        response: { 303: z.null(), ...errors },
      },
    },
    async (request, reply) => {
      const { invoiceId } = request.query;
      const status = await settleInvoice(deps, invoiceId, 'return');
      if (!status) throw notFound('There is no such invoice.');
      const query = new URLSearchParams({ invoiceId }).toString();
      return reply.redirect(`${status === 'paid' ? '/success' : '/failed'}?${query}`, 303);
    },
  );

  routes.post(
    '/payments/callback',
    {
      schema: {
        tags: ['premium'],
        summary: "The provider's signed server callback",
        body: z.object({
          invoice_id: invoiceIdSchema,
          status: z.string().max(40),
          amount: z.number().int(),
          currency: z.string().max(8),
          timestamp: z.number().int(),
        }),
        response: { 200: z.object({ status: invoiceSchema.shape.status }), ...errors },
      },
    },
    async (request) => ({
      status: await receivePaymentCallback(
        deps,
        request.body,
        request.headers[SIGNATURE_HEADER],
        request.log,
      ),
    }),
  );

  routes.get(
    '/payments/invoices/:invoiceId',
    {
      onRequest: app.authenticate,
      schema: {
        tags: ['premium'],
        summary: "The state of one of the user's invoices (confirmed with the provider while open)",
        params: z.object({ invoiceId: invoiceIdSchema }),
        response: { 200: invoiceSchema, ...errors },
      },
    },
    (request) => viewInvoice(deps, request.userId, request.params.invoiceId),
  );

  routes.get(
    '/payments/:invoiceId',
    {
      onRequest: app.authenticate,
      schema: {
        tags: ['premium'],
        summary:
          "A payment in progress as its page shows it (pending, paid, failed, expired); the owner's only",
        params: z.object({ invoiceId: invoiceIdSchema }),
        response: { 200: paymentStatusSchema, ...errors },
      },
    },
    (request) => paymentStatus(deps, request.userId, request.params.invoiceId),
  );

  // QPay's callback, in a scope of its own: its body is never read (nothing in an unsigned call
  // is believed), so any body up to 4 KiB is taken as text and dropped, and the answer is 200
  // `SUCCESS` (text/plain) whatever QPay says, or QPay keeps calling back.
  await app.register(async (scope) => {
    scope.removeAllContentTypeParsers();
    scope.addContentTypeParser('*', { parseAs: 'string', bodyLimit: 4096 }, (_request, _body, done) =>
      done(null, undefined),
    );
    const qpayCallback = {
      schema: {
        tags: ['premium'],
        summary: "QPay's callback (unsigned): only makes the server ask QPay about the invoice",
        // A missing or malformed id is answered the same way, and asks nothing of anyone.
        querystring: z.object({ invoiceId: invoiceIdSchema.optional().catch(undefined) }),
        response: {
          200: {
            description: 'Always `SUCCESS`, as QPay asks of its merchants',
            content: { 'text/plain': { schema: z.literal(QPAY_CALLBACK_ANSWER) } },
          },
        },
      },
    } as const;
    const onQpayCallback = async (
      request: { query: { invoiceId?: string | undefined } },
      reply: FastifyReply,
    ) => {
      if (request.query.invoiceId) await receiveQpayCallback(deps, request.query.invoiceId);
      return reply.type('text/plain; charset=utf-8').send(QPAY_CALLBACK_ANSWER);
    };
    const scoped = scope.withTypeProvider<ZodTypeProvider>();
    scoped.get('/payments/qpay/callback', qpayCallback, onQpayCallback);
    scoped.post('/payments/qpay/callback', qpayCallback, onQpayCallback);
  });

  routes.post(
    '/cache/item',
    {
      onRequest: app.authenticate,
      schema: {
        tags: ['premium'],
        summary: 'Keep a key and value for the signed-in user (product.md §7)',
        body: cacheItemSchema,
        response: { 200: cacheItemSchema, ...errors },
      },
    },
    (request) => saveCacheItem(deps, request.userId, request.body),
  );
}
