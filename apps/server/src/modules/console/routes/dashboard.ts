import { dashboardQuerySchema } from '@tunes/shared/console';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { dashboard } from '../dashboard.js';
import { requireRole } from '../guard.js';
import { errors, SECURED, TAGS } from './schemas.js';

/** The dashboard (admin): subscriptions and revenue per day. */
export default async function consoleDashboardRoutes(app: FastifyInstance) {
  const { deps } = app;
  const api = app.withTypeProvider<ZodTypeProvider>();
  const admin = requireRole(app);
  api.get(
    '/dashboard',
    {
      onRequest: admin,
      schema: {
        tags: TAGS,
        summary: 'Subscriptions and revenue per day',
        security: SECURED,
        querystring: dashboardQuerySchema,
        response: errors,
      },
    },
    (request) => dashboard(deps, Number(request.query.days)),
  );
}
