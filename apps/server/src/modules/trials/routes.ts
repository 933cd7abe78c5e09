import { errorBodySchema } from '@tunes/shared/errors';
import {
  trialOfferSchema,
  trialRefusalBodySchema,
  trialStartRequestSchema,
  trialStartResponseSchema,
} from '@tunes/shared/trials';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { finishCardTrial } from './card-trial.js';
import { startTrial } from './start.js';
import { trialOffer } from './state.js';

const errors = { 400: errorBodySchema, 401: errorBodySchema, 403: errorBodySchema, 404: errorBodySchema };

/** First-time trials (docs/decisions/0045-trials.md, product.md "Trials"). */
export default async function trialRoutes(app: FastifyInstance) {
  const { deps } = app;
  const routes = app.withTypeProvider<ZodTypeProvider>();

  routes.get(
    '/premium/trial',
    {
      onRequest: app.authenticate,
      schema: {
        tags: ['premium'],
        summary: 'Whether the listener may start a free trial, and the plans that have one',
        response: { 200: trialOfferSchema, ...errors },
      },
    },
    (request) => trialOffer(deps, request.userId),
  );

  routes.post(
    '/premium/trial',
    {
      onRequest: app.authenticate,
      schema: {
        tags: ['premium'],
        summary:
          'Start a free trial: by card (the save-card page, nothing charged) or by QPay link (at once)',
        body: trialStartRequestSchema,
        response: {
          200: trialStartResponseSchema,
          ...errors,
          409: trialRefusalBodySchema,
          429: errorBodySchema,
          502: errorBodySchema,
        },
      },
    },
    (request) => startTrial(deps, request.userId, request.body),
  );

  routes.get(
    '/payments/trial-return',
    {
      schema: {
        tags: ['premium'],
        summary: "Where the trial's save-card page sends the listener back; asks the gateway, then /profile",
        querystring: z.object({ reference: z.string().regex(/^trial_[0-9a-f-]{36}$/) }),
        response: { 303: z.null(), 400: errorBodySchema, 404: errorBodySchema },
      },
    },
    async (request, reply) => {
      const outcome = await finishCardTrial(deps, request.query.reference).catch((error: unknown) => {
        if ((error as { statusCode?: number }).statusCode === 404) throw error;
        request.log.warn({ err: error }, 'trial return: the gateway could not say');
        return 'pending' as const;
      });
      return reply.redirect(`/profile?${new URLSearchParams({ trial: outcome }).toString()}`, 303);
    },
  );
}
