import { runDueResponseSchema } from '@tunes/shared/billing';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';

/**
 * `POST /dev/jobs/run-due` (product.md §12, development only): every job whose time has come by
 * the server's clock runs now, and the answer comes when they are done, so a test moves the
 * clock (`POST /dev/clock`) and walks a subscription through a year in seconds.
 */
export default async function jobsDevRoutes(app: FastifyInstance) {
  const routes = app.withTypeProvider<ZodTypeProvider>();
  routes.post(
    '/jobs/run-due',
    {
      schema: {
        tags: ['dev'],
        summary: 'Run every due job now and answer when done (development only)',
        response: { 200: runDueResponseSchema },
      },
    },
    () => app.jobs.runDue(),
  );
}
