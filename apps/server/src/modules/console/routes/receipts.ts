import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { paymentReceipt } from '../../billing/history.js';
import { requireRole } from '../guard.js';
import { errors, SECURED, TAGS, userAndInvoice } from './schemas.js';

/**
 * A listener's receipt as support reads it (roles support and admin): the listener's own
 * `/receipts/{invoiceId}` needs the listener's sign-in, so the console shows this one.
 */
export default async function consoleReceiptRoutes(app: FastifyInstance) {
  const { deps } = app;
  const api = app.withTypeProvider<ZodTypeProvider>();
  const support = requireRole(app, 'support');
  api.get(
    '/users/:id/payments/:invoiceId/receipt',
    {
      onRequest: support,
      schema: {
        tags: TAGS,
        summary: "A listener's paid invoice as its printable receipt shows it",
        security: SECURED,
        params: userAndInvoice,
        response: errors,
      },
    },
    (request) => paymentReceipt(deps, request.params.id, request.params.invoiceId),
  );
}
