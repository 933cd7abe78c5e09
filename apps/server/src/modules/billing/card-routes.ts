import { cardReplaceResponseSchema, renewalMethodRequestSchema } from '@tunes/shared/billing';
import { errorBodySchema } from '@tunes/shared/errors';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { finishCardReplacement, startCardReplacement } from './card-replacement.js';
import { chooseRenewalMethod } from './pay-renewals-by.js';

const errors = { 400: errorBodySchema, 401: errorBodySchema, 403: errorBodySchema, 404: errorBodySchema };

/**
 * The card on file replaced without a charge (the gateway's save-card page) and the choice of
 * how renewals are paid (product.md §12).
 */
export default async function cardRoutes(app: FastifyInstance) {
  const { deps } = app;
  const routes = app.withTypeProvider<ZodTypeProvider>();

  routes.post(
    '/users/me/card/replace',
    {
      onRequest: app.authenticate,
      schema: {
        tags: ['billing'],
        summary: "Open the gateway's save-card page for a new card on file (nothing is charged)",
        response: { 200: cardReplaceResponseSchema, ...errors, 429: errorBodySchema, 502: errorBodySchema },
      },
    },
    (request) => startCardReplacement(deps, request.userId),
  );

  routes.get(
    '/payments/card-return',
    {
      schema: {
        tags: ['billing'],
        summary: 'Where the save-card page sends the listener back; asks the gateway, then /profile',
        querystring: z.object({ reference: z.string().regex(/^card_[0-9a-f-]{36}$/) }),
        response: { 303: z.null(), 400: errorBodySchema, 404: errorBodySchema },
      },
    },
    async (request, reply) => {
      const outcome = await finishCardReplacement(deps, request.query.reference).catch((error: unknown) => {
        request.log.warn({ err: error }, 'card return: the gateway could not say');
        return 'pending' as const;
      });
      return reply.redirect(`/profile?${new URLSearchParams({ card: outcome }).toString()}`, 303);
    },
  );

  routes.put(
    '/users/me/renewal-method',
    {
      onRequest: app.authenticate,
      schema: {
        tags: ['billing'],
        summary: 'Pay renewals with the card on file or by a QPay link',
        body: renewalMethodRequestSchema,
        response: { 204: z.null(), ...errors, 409: errorBodySchema },
      },
    },
    async (request, reply) => {
      await chooseRenewalMethod(deps, request.userId, request.body.method);
      return reply.code(204).send(null);
    },
  );
}
