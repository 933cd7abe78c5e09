import { errorBodySchema } from '@tunes/shared/errors';
import {
  allPlansQuerySchema,
  cacheItemSchema,
  checkoutRequestSchema,
  checkoutResponseSchema,
  invoiceSchema,
  merchantSchema,
  planSchema,
  subscriptionsQuerySchema,
} from '@tunes/shared/premium';
import { subscriptionSchema } from '@tunes/shared/profile';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { AppError, forbidden, notFound } from '../../lib/errors.js';
import { LIMITS } from '../../lib/limits.js';
import { enforce } from '../../lib/throttle.js';
import { assertSelf } from '../../plugins/auth.js';
import { isValidCallbackSignature, type PaymentCallback, SIGNATURE_HEADER } from './callback-signature.js';
import { startCheckout } from './checkout.js';
import type { PaymentContext } from './context.js';
import { httpPaymentGateway } from './gateway.js';
import { listMerchantPlans, listMerchants, merchantExists } from './plans.js';
import { checkPendingInvoices, lapseUnpaidRenewals, settleInvoice } from './settlement.js';
import { cancelAutoRenew, listSubscriptions } from './subscriptions.js';
import { jsonPostFor } from './transport.js';
import './tables.js';

/** A production site that opted out of payments (ALLOW_NO_PAYMENTS) sells nothing. */
const paymentsUnavailable = () =>
  new AppError(503, 'payments_unavailable', 'Payments are not available on this site at the moment.');

const errors = { 400: errorBodySchema, 401: errorBodySchema, 403: errorBodySchema, 404: errorBodySchema };
const subParams = z.object({ sub: z.uuid() });
const invoiceIdSchema = z.string().trim().min(1).max(200);
/** Each checkout opens a payment session at the provider: a few per user every ten minutes. */

/**
 * Premium (product.md §2 /premium, §4 plan purchase, §7): merchants and plans, checkout through the
 * gateway adapter, the shopper's return, the provider's signed callback, the periodic check of
 * pending invoices, cancelling auto-renew, and the cache item call.
 */
export default async function premiumRoutes(app: FastifyInstance) {
  const { config, db, clock } = app.deps;
  const routes = app.withTypeProvider<ZodTypeProvider>();
  const ctx = paymentContext(app);
  startPendingInvoiceCheck(app, ctx, config.PAYMENT_CHECK_INTERVAL_SECONDS);

  routes.get(
    '/merchants',
    {
      schema: {
        tags: ['premium'],
        summary: 'Merchants selling plans',
        response: { 200: z.array(merchantSchema) },
      },
    },
    () => listMerchants(db),
  );

  routes.get(
    '/packages/allplans',
    {
      schema: {
        tags: ['premium'],
        summary: "A merchant's plans (the site lists the MNT premium, duo and family ones)",
        querystring: allPlansQuerySchema,
        response: { 200: z.array(planSchema), ...errors },
      },
    },
    async (request) => {
      const { merchantId } = request.query;
      // One round trip for a merchant with plans; only an empty list asks whether it exists.
      const plans = await listMerchantPlans(db, merchantId);
      if (plans.length === 0 && !(await merchantExists(db, merchantId))) {
        throw notFound(`There is no merchant ${merchantId}.`);
      }
      return plans;
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
      return listSubscriptions(db, request.userId, clock.now(), request.query.IsFutureActive);
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
      return cancelAutoRenew(db, request.userId, request.params.subscriptionId, clock.now());
    },
  );

  routes.post(
    '/payments/checkout',
    {
      onRequest: app.authenticate,
      schema: {
        tags: ['premium'],
        summary: 'Start a card payment for a plan; answers the gateway page',
        body: checkoutRequestSchema,
        response: {
          200: checkoutResponseSchema,
          ...errors,
          409: errorBodySchema,
          429: errorBodySchema,
          502: errorBodySchema,
          503: errorBodySchema,
        },
      },
    },
    async (request) => {
      if (!app.deps.config.paymentsEnabled) throw paymentsUnavailable();
      await enforce(app.deps.throttle, `checkout:${request.userId}`, LIMITS.checkoutsPerUser);
      return startCheckout(ctx, request.userId, request.body.MerchantCode);
    },
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
      const status = await settleInvoice(ctx, invoiceId, 'return');
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
    async (request) => {
      const callback: PaymentCallback = request.body;
      const signature = request.headers[SIGNATURE_HEADER];
      const signatureText = typeof signature === 'string' ? signature : undefined;
      if (!isValidCallbackSignature(config.PAYMENT_CALLBACK_SECRET, callback, signatureText, clock.now())) {
        // Verified before anything is stored: a refused callback writes no row, only one short
        // line to the application log (the invoice id is bounded by its schema; no headers).
        request.log.warn(
          { invoiceId: callback.invoice_id },
          'payment callback refused: invalid or expired signature',
        );
        throw new AppError(401, 'invalid_signature', 'The callback signature is invalid.');
      }
      const status = await settleInvoice(ctx, callback.invoice_id, 'callback');
      if (!status) throw notFound('There is no such invoice.');
      return { status };
    },
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
    async (request) => {
      const { invoiceId } = request.params;
      const owner = await db
        .selectFrom('payment_invoices')
        .select('user_id')
        .where('invoice_id', '=', invoiceId)
        .executeTakeFirst();
      if (!owner) throw notFound('There is no such invoice.');
      if (owner.user_id !== request.userId) throw forbidden('This invoice belongs to another account.');
      await settleInvoice(ctx, invoiceId, 'check');
      const invoice = await db
        .selectFrom('payment_invoices as i')
        .innerJoin('packages as p', 'p.id', 'i.package_id')
        .select([
          'i.invoice_id as invoiceId',
          'i.status',
          'p.merchant_code as MerchantCode',
          'i.amount',
          'i.currency',
        ])
        .where('i.invoice_id', '=', invoiceId)
        .executeTakeFirstOrThrow();
      return invoice;
    },
  );

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
    async (request) => {
      const { key, value } = request.body;
      const now = clock.now();
      await db
        .insertInto('cache_items')
        .values({ user_id: request.userId, key, value, updated_at: now })
        .onConflict((oc) => oc.columns(['user_id', 'key']).doUpdateSet({ value, updated_at: now }))
        .execute();
      return { key, value };
    },
  );
}

/** The payment functions' context: the configured gateway adapter on the app's database and clock. */
export function paymentContext(app: FastifyInstance): PaymentContext {
  const { config, db, clock } = app.deps;
  return {
    db,
    clock,
    publicUrl: config.PUBLIC_URL,
    gateway: httpPaymentGateway({
      baseUrl: config.PAYMENT_PROVIDER_URL,
      clientId: config.PAYMENT_CLIENT_ID,
      clientSecret: config.PAYMENT_CLIENT_SECRET,
      post: jsonPostFor(app, config.PUBLIC_URL),
    }),
    reportError: (error, message) => app.log.error({ err: error }, message),
  };
}

/** Runs the periodic check every `intervalSeconds` (0 = off) from ready to close. */
function startPendingInvoiceCheck(app: FastifyInstance, ctx: PaymentContext, intervalSeconds: number) {
  if (intervalSeconds <= 0) return;
  let timer: NodeJS.Timeout | undefined;
  let running = false;
  let closed = false;
  const check = () => {
    if (running) return;
    running = true;
    checkPendingInvoices(ctx)
      .then(() => lapseUnpaidRenewals(ctx))
      .catch((error: unknown) => ctx.reportError(error, 'periodic payment check failed'))
      .finally(() => {
        running = false;
      });
  };
  app.addHook('onReady', async () => {
    // The database may still be migrating on a first start; the checks begin once it is ready.
    app.deps.databaseReady.then(
      () => {
        if (closed) return;
        timer = setInterval(check, intervalSeconds * 1000);
        timer.unref();
      },
      () => {},
    );
  });
  app.addHook('onClose', async () => {
    closed = true;
    clearInterval(timer);
  });
}
