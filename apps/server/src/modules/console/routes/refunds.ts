import { refundRequestSchema } from '@tunes/shared/console';
import { errorBodySchema } from '@tunes/shared/errors';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { operatorOf, requireRole } from '../guard.js';
import { refundPayment } from '../refunds.js';
import { errors, SECURED, TAGS } from './schemas.js';

/** Refunds (admin): all or part of a payment, at its provider, once. */
export default async function consoleRefundRoutes(app: FastifyInstance) {
  const api = app.withTypeProvider<ZodTypeProvider>();
  const admin = requireRole(app);
  api.post(
    '/payments/:invoiceId/refund',
    {
      onRequest: admin,
      schema: {
        tags: TAGS,
        summary: 'Refund all or part of a payment at its provider (card gateway or QPay), once',
        security: SECURED,
        params: z.object({ invoiceId: z.string().max(200) }),
        body: refundRequestSchema,
        response: { ...errors, 502: errorBodySchema },
      },
    },
    (request) =>
      refundPayment(app.deps, operatorOf(request).operator.id, request.params.invoiceId, request.body),
  );
}
