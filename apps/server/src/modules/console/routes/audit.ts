import { auditQuerySchema } from '@tunes/shared/console';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { listAudit } from '../audit.js';
import { withTargetNames } from '../audit-names.js';
import { requireRole } from '../guard.js';
import { errors, SECURED, TAGS } from './schemas.js';

/** The audit log (admin), newest first. */
export default async function consoleAuditRoutes(app: FastifyInstance) {
  const { deps } = app;
  const api = app.withTypeProvider<ZodTypeProvider>();
  const admin = requireRole(app);
  api.get(
    '/audit',
    {
      onRequest: admin,
      schema: {
        tags: TAGS,
        summary: 'The audit log, newest first',
        security: SECURED,
        querystring: auditQuerySchema,
        response: errors,
      },
    },
    async (request) => {
      const page = await listAudit(deps.db, request.query);
      return { ...page, entries: await withTargetNames(deps.db, page.entries) };
    },
  );
}
