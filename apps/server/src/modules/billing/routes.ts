import {
  billingSchema,
  payInvoiceRequestSchema,
  payInvoiceResponseSchema,
  paymentHistorySchema,
  payNowResponseSchema,
  planChangePreviewQuerySchema,
  planChangePreviewSchema,
  planChangeRequestSchema,
  planChangeResponseSchema,
  receiptSchema,
} from '@tunes/shared/billing';
import { errorBodySchema } from '@tunes/shared/errors';
import { subscriptionSchema } from '@tunes/shared/profile';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { removeCard } from '../premium/saved-cards.js';
import { billingOverview, payRenewalNow, resumeAutoRenew } from './billing-view.js';
import { paymentHistory, paymentReceipt } from './history.js';
import { registerBillingJobs } from './jobs.js';
import { payInvoice } from './pay-invoice.js';
import { changePlan } from './plan-change.js';
import { quotePlanChange } from './plan-change-quote.js';

const errors = { 400: errorBodySchema, 401: errorBodySchema, 403: errorBodySchema, 404: errorBodySchema };
const subscriptionParams = z.object({ id: z.uuid() });
const invoiceParams = z.object({ invoiceId: z.string().trim().min(1).max(200) });

/**
 * The billing lifecycle (product.md §12): the card on file, the next charge, plan changes,
 * resume, pay now, payment history and receipts; and its work on the job queue.
 */
export default async function billingRoutes(app: FastifyInstance) {
  const { deps } = app;
  const routes = app.withTypeProvider<ZodTypeProvider>();
  registerBillingJobs(app.jobs, deps);

  routes.get(
    '/users/me/billing',
    {
      onRequest: app.authenticate,
      schema: {
        tags: ['billing'],
        summary: 'The card on file and the next charge of your plan',
        response: { 200: billingSchema, ...errors },
      },
    },
    (request) => billingOverview(deps, request.userId),
  );

  routes.delete(
    '/users/me/card',
    {
      onRequest: app.authenticate,
      schema: {
        tags: ['billing'],
        summary: 'Remove the card on file; renewals then come as a payment link',
        response: { 204: z.null(), ...errors },
      },
    },
    async (request, reply) => {
      await removeCard(deps, request.userId);
      return reply.code(204).send(null);
    },
  );

  routes.post(
    '/subscriptions/:id/change',
    {
      onRequest: app.authenticate,
      schema: {
        tags: ['billing'],
        summary: 'Change plan: an upgrade now for the prorated difference, a downgrade at renewal',
        params: subscriptionParams,
        body: planChangeRequestSchema,
        response: {
          200: planChangeResponseSchema,
          ...errors,
          409: errorBodySchema,
          429: errorBodySchema,
          502: errorBodySchema,
        },
      },
    },
    (request) => changePlan(deps, request.userId, request.params.id, request.body.MerchantCode, request.log),
  );

  routes.get(
    '/subscriptions/:id/plan-change/preview',
    {
      onRequest: app.authenticate,
      schema: {
        tags: ['billing'],
        summary: 'What changing to a plan would charge now and when it starts; changes nothing',
        description:
          'Priced by the same function as `POST /subscriptions/{id}/change`, with its refusals: 400, 403 for a member, 404, 409 `plan_not_changeable`.',
        params: subscriptionParams,
        querystring: planChangePreviewQuerySchema,
        response: { 200: planChangePreviewSchema, ...errors, 409: errorBodySchema },
      },
    },
    async (request) => {
      const quote = await quotePlanChange(deps, request.userId, request.params.id, request.query.plan);
      return {
        kind: quote.kind,
        amount: quote.amount,
        currency: quote.currency,
        startsAt: quote.startsAt.toISOString(),
      };
    },
  );

  routes.post(
    '/subscriptions/:id/resume',
    {
      onRequest: app.authenticate,
      schema: {
        tags: ['billing'],
        summary: 'Turn auto-renew back on before the end date',
        params: subscriptionParams,
        response: { 200: subscriptionSchema, ...errors, 409: errorBodySchema },
      },
    },
    (request) => resumeAutoRenew(deps, request.userId, request.params.id),
  );

  routes.post(
    '/subscriptions/:id/pay-now',
    {
      onRequest: app.authenticate,
      schema: {
        tags: ['billing'],
        summary: 'The gateway page for a renewal the saved card failed to pay',
        params: subscriptionParams,
        response: { 200: payNowResponseSchema, ...errors, 409: errorBodySchema },
      },
    },
    (request) => payRenewalNow(deps, request.userId, request.params.id),
  );

  routes.post(
    '/payments/:invoiceId/pay',
    {
      onRequest: app.authenticate,
      schema: {
        tags: ['billing'],
        summary: 'Pay one of your open invoices (a renewal link) by card or QPay',
        params: invoiceParams,
        body: payInvoiceRequestSchema,
        response: {
          200: payInvoiceResponseSchema,
          ...errors,
          409: errorBodySchema,
          502: errorBodySchema,
          503: errorBodySchema,
        },
      },
    },
    (request) => payInvoice(deps, request.userId, request.params.invoiceId, request.body.method),
  );

  routes.get(
    '/users/me/payments',
    {
      onRequest: app.authenticate,
      schema: {
        tags: ['billing'],
        summary: 'Your payments, newest first, with receipts',
        response: { 200: paymentHistorySchema, ...errors },
      },
    },
    (request) => paymentHistory(deps, request.userId),
  );

  routes.get(
    '/users/me/receipts/:invoiceId',
    {
      onRequest: app.authenticate,
      schema: {
        tags: ['billing'],
        summary: 'The receipt of one paid invoice',
        params: invoiceParams,
        response: { 200: receiptSchema, ...errors },
      },
    },
    (request) => paymentReceipt(deps, request.userId, request.params.invoiceId),
  );
}
