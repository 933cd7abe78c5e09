import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { listFeedbackPage, readFeedback } from '../feedback-inbox.js';
import { requireRole } from '../guard.js';
import { errors, SECURED, TAGS } from './schemas.js';

/** A feedback id: the table's serial, as digits. */
const feedbackId = z.string().regex(/^\d{1,15}$/);
export const feedbackQuerySchema = z.object({
  limit: z.coerce.number().int().min(1).max(100).default(50),
  before: feedbackId.optional(),
});

/** Feedback from the contact page (roles support and admin): the list and one message. */
export default async function consoleFeedbackRoutes(app: FastifyInstance) {
  const { deps } = app;
  const api = app.withTypeProvider<ZodTypeProvider>();
  const support = requireRole(app, 'support');
  api.get(
    '/feedback',
    {
      onRequest: support,
      schema: {
        tags: TAGS,
        summary: 'Feedback from the contact page, newest first',
        security: SECURED,
        querystring: feedbackQuerySchema,
        response: errors,
      },
    },
    (request) => listFeedbackPage(deps, request.query),
  );
  api.get(
    '/feedback/:id',
    {
      onRequest: support,
      schema: {
        tags: TAGS,
        summary: 'One feedback message',
        security: SECURED,
        params: z.object({ id: feedbackId }),
        response: errors,
      },
    },
    async (request) => ({ feedback: await readFeedback(deps, request.params.id) }),
  );
}
