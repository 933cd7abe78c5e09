import { offerCreateSchema, offerIdParamsSchema } from '@tunes/shared/offers';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { createOffer, endOffer, listOffers } from '../../offers/admin.js';
import { audit } from '../audit.js';
import { operatorOf, requireRole } from '../guard.js';
import { empty, errors, SECURED, TAGS } from './schemas.js';

/** Offers (admin; docs/console-api.md "Offers"): list, create, end; every change audited. */
export default async function consoleOfferRoutes(app: FastifyInstance) {
  const { deps } = app;
  const api = app.withTypeProvider<ZodTypeProvider>();
  const admin = requireRole(app);
  const route = (summary: string) => ({ tags: TAGS, summary, security: SECURED, response: errors });
  api.get('/offers', { onRequest: admin, schema: route('Offers, newest first') }, async () => ({
    offers: await listOffers(deps),
  }));
  api.post(
    '/offers',
    { onRequest: admin, schema: { ...route('Create an offer'), body: offerCreateSchema } },
    async (request, reply) =>
      reply.code(201).send(await createOffer(deps, audit, operatorOf(request).operator.id, request.body)),
  );
  api.post(
    '/offers/:id/end',
    {
      onRequest: admin,
      schema: { ...route('End an offer: no new redemptions'), params: offerIdParamsSchema, body: empty },
    },
    (request) => endOffer(deps, audit, operatorOf(request).operator.id, request.params.id),
  );
}
