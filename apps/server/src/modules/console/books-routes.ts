import { errorBodySchema } from '@tunes/shared/errors';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { lastBooksReport, runBooksCheck } from '../billing/books-store.js';
import { requireRole } from './guard.js';

/**
 * `GET /api/admin/books` (admin): the last books check (billing/books-check.ts), as the hourly
 * job or an operator's command left it; the first call before any runs one. Registered inside
 * the console's scope (routes.ts), so its guard and listener-token refusal apply.
 */
export default async function consoleBooksRoutes(app: FastifyInstance) {
  const api = app.withTypeProvider<ZodTypeProvider>();
  api.get(
    '/books',
    {
      onRequest: requireRole(app),
      schema: {
        tags: ['console'],
        summary: 'The last check that the books balance: its mismatches',
        security: [{ operatorSession: [] }],
        response: { 200: z.any(), 401: errorBodySchema, 403: errorBodySchema },
      },
    },
    async () => (await lastBooksReport(app.deps.db)) ?? runBooksCheck(app.deps, 'console'),
  );
}
