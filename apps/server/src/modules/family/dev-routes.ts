import { errorBodySchema } from '@tunes/shared/errors';
import { invitationCodeParamSchema } from '@tunes/shared/family';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { notFound } from '../../lib/errors.js';
import './tables.js';

/**
 * `POST /dev/invitation-codes/{code}/expire` (development only): ends an invitation's 5 days at
 * once, so browser tests can show the expired-link message without waiting.
 */
export default async function familyDevRoutes(app: FastifyInstance) {
  app.withTypeProvider<ZodTypeProvider>().post(
    '/invitation-codes/:code/expire',
    {
      schema: {
        tags: ['dev'],
        summary: 'Expire an invitation code now (development only)',
        params: invitationCodeParamSchema,
        response: { 204: z.null(), 404: errorBodySchema },
      },
    },
    async (request, reply) => {
      const now = app.deps.clock.now();
      const updated = await app.deps.db
        .updateTable('invitation_codes')
        .set({ expires_at: new Date(now.getTime() - 1000) })
        .where('code', '=', request.params.code)
        .executeTakeFirst();
      if (Number(updated.numUpdatedRows) === 0) throw notFound('No such invitation code.');
      return reply.code(204).send(null);
    },
  );
}
