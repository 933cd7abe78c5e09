import { API_ERROR_CODES } from '@tunes/shared/error-codes';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { sql } from 'kysely';
import { z } from 'zod';
import { AppError } from '../../lib/errors.js';

const healthSchema = z.object({
  status: z.literal('ok'),
  database: z.enum(['pglite', 'postgres']),
});

export default async function healthRoutes(app: FastifyInstance) {
  app.withTypeProvider<ZodTypeProvider>().get(
    '/health',
    {
      schema: {
        tags: ['health'],
        summary: 'Liveness and database check',
        response: { 200: healthSchema },
      },
    },
    async () => {
      try {
        await sql`select 1`.execute(app.deps.db);
      } catch (error) {
        app.log.error({ err: error }, 'health check: database unreachable');
        throw new AppError(503, API_ERROR_CODES.unavailable, 'The database is unreachable.');
      }
      return { status: 'ok' as const, database: app.deps.dbKind };
    },
  );
}
