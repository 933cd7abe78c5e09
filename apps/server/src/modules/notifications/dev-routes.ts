import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { listOutbox } from './outbox.js';

const outboxEntrySchema = z.object({
  channel: z.enum(['sms', 'email']),
  to: z.string(),
  text: z.string(),
  code: z.string().nullable(),
  link: z.string().nullable(),
  createdAt: z.string(),
});

/** `GET /dev/outbox?to=` (product.md §11): every message sent, newest first. Development only. */
export default async function outboxDevRoutes(app: FastifyInstance) {
  app.withTypeProvider<ZodTypeProvider>().get(
    '/outbox',
    {
      schema: {
        tags: ['dev'],
        summary: 'Messages sent to a number or address, newest first (development only)',
        querystring: z.object({ to: z.string().trim().max(254).optional() }),
        response: { 200: z.array(outboxEntrySchema) },
      },
    },
    async (request) => {
      const to = request.query.to?.includes('@')
        ? request.query.to.toLowerCase()
        : request.query.to?.replace(/^\+/, '');
      return listOutbox(app.deps, to || undefined);
    },
  );
}
