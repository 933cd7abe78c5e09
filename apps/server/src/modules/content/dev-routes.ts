import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { command as feedbackList } from '../../admin/commands/feedback-list.js';

/**
 * Development only (mounted under /dev). The e2e server runs on PGlite, and while it runs it holds
 * the DATA_DIR lock (db/lock.ts), so `npm run admin -- feedback:list` refuses that directory. This
 * route runs the very same command on the server's own database connection and answers what the
 * command prints, so an end-to-end test reads the operator's listing, not a look-alike.
 */
export default async function contentDevRoutes(app: FastifyInstance) {
  app.withTypeProvider<ZodTypeProvider>().get(
    '/feedback',
    {
      schema: {
        hide: true,
        querystring: z.object({
          email: z.string().max(254).optional(),
          limit: z.coerce.number().int().min(1).max(500).optional(),
          json: z.enum(['true', 'false']).optional(),
        }),
      },
    },
    async (request, reply) => {
      const { email, limit, json } = request.query;
      const args = [
        ...(email === undefined ? [] : ['--email', email]),
        ...(limit === undefined ? [] : ['--limit', String(limit)]),
        ...(json === 'true' ? ['--json'] : []),
      ];
      const lines: string[] = [];
      await feedbackList.run(args, {
        config: app.deps.config,
        db: async () => app.deps.db,
        print: (line) => lines.push(line),
      });
      return reply.type('text/plain; charset=utf-8').send(`${lines.join('\n')}\n`);
    },
  );
}
