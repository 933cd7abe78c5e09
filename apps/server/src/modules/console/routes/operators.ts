import { createOperatorSchema, updateOperatorSchema } from '@tunes/shared/console';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { operatorOf, requireRole } from '../guard.js';
import { createOperator, listOperators, reissueSetupLink, updateOperator } from '../operators.js';
import { empty, errors, id, SECURED, TAGS } from './schemas.js';

/** Operators (admin): list, add, change role or disable, a fresh set-up link. */
export default async function consoleOperatorRoutes(app: FastifyInstance) {
  const { deps } = app;
  const api = app.withTypeProvider<ZodTypeProvider>();
  const admin = requireRole(app);
  api.get(
    '/operators',
    {
      onRequest: admin,
      schema: { tags: TAGS, summary: 'Every operator', security: SECURED, response: errors },
    },
    async () => ({ operators: await listOperators(deps.db) }),
  );
  api.post(
    '/operators',
    {
      onRequest: admin,
      schema: {
        tags: TAGS,
        summary: 'Add an operator; answers their set-up link',
        security: SECURED,
        body: createOperatorSchema,
        response: errors,
      },
    },
    async (request, reply) =>
      reply.code(201).send(await createOperator(deps, request.body, operatorOf(request).operator.id)),
  );
  api.patch(
    '/operators/:id',
    {
      onRequest: admin,
      schema: {
        tags: TAGS,
        summary: "Change an operator's role or disable them",
        security: SECURED,
        params: id,
        body: updateOperatorSchema,
        response: errors,
      },
    },
    async (request) => ({
      operator: await updateOperator(deps, operatorOf(request).operator.id, request.params.id, request.body),
    }),
  );
  api.post(
    '/operators/:id/setup-link',
    {
      onRequest: admin,
      schema: {
        tags: TAGS,
        summary: 'A fresh set-up link for an operator',
        security: SECURED,
        params: id,
        body: empty,
        response: errors,
      },
    },
    async (request) => ({
      setupUrl: await reissueSetupLink(deps, operatorOf(request).operator.id, request.params.id),
    }),
  );
}
