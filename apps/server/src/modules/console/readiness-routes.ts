import { errorBodySchema } from '@tunes/shared/errors';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { requireRole } from './guard.js';
import { readiness } from './readiness.js';

/**
 * `GET /api/admin/readiness` (admin): what the site still lacks before it can sell (readiness.ts),
 * for the console's first-run panel. Registered inside the console's scope (routes.ts).
 */
export default async function consoleReadinessRoutes(app: FastifyInstance) {
  const api = app.withTypeProvider<ZodTypeProvider>();
  api.get(
    '/readiness',
    {
      onRequest: requireRole(app),
      schema: {
        tags: ['console'],
        summary: 'What the site lacks before it can sell: plans, landing content, providers, operators',
        security: [{ operatorSession: [] }],
        response: { 200: z.any(), 401: errorBodySchema, 403: errorBodySchema },
      },
    },
    () => readiness(app.deps),
  );
}
