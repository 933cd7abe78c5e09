import { errorBodySchema } from '@tunes/shared/errors';
import { offerCodeParamsSchema, publicOfferSchema } from '@tunes/shared/offers';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { publicOffer } from './public.js';

/** The public look-up of an offer code (the site's `/premium?offer=CODE` and its code field). */
export default async function offerRoutes(app: FastifyInstance) {
  // Signing in is optional: a token given must be valid, and then the answer is for its listener.
  const maybeSignedIn = async (request: FastifyRequest, reply: FastifyReply) => {
    if (request.headers.authorization) await app.authenticate(request, reply);
  };
  app.withTypeProvider<ZodTypeProvider>().get(
    '/offers/:code',
    {
      onRequest: maybeSignedIn,
      schema: {
        tags: ['offers'],
        summary: 'An offer code: its terms, the discounted prices, and whether the listener may use it',
        description:
          'Codes are case-insensitive. 404 `offer_not_found`, 410 `offer_ended`, 409 `offer_exhausted`, 429 past the look-ups one client address may make. With a bearer token, `eligible` and `reason` are for that listener.',
        params: offerCodeParamsSchema,
        response: {
          200: publicOfferSchema,
          400: errorBodySchema,
          401: errorBodySchema,
          404: errorBodySchema,
          409: errorBodySchema,
          410: errorBodySchema,
          429: errorBodySchema,
        },
      },
    },
    async (request, reply) => {
      reply.header('cache-control', 'no-store');
      return publicOffer(app.deps, request.params.code, request.userId || null, request.ip);
    },
  );
}
