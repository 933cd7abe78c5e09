import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { Clock } from '../../lib/clock.js';
import { badRequest } from '../../lib/errors.js';

/**
 * `POST /dev/clock` (product.md §12): moves this process's business clock forward for every
 * time-based rule (code windows, expiries, periods). Development only, and per process: a
 * scaled-out deployment is production, where this is never mounted.
 */
const isMovable = (clock: Clock): clock is Clock & { advance(ms: number): void } =>
  typeof (clock as { advance?: unknown }).advance === 'function';

export default async function clockDevRoutes(api: FastifyInstance) {
  const app = api.withTypeProvider<ZodTypeProvider>();
  const { clock } = api.deps;

  app.post(
    '/clock',
    {
      schema: {
        tags: ['dev'],
        summary: 'Move the server clock forward (development only)',
        body: z.object({
          advanceSeconds: z
            .number()
            .int()
            .min(0)
            .max(10 * 366 * 86_400),
        }),
        response: { 200: z.object({ now: z.string() }) },
      },
    },
    async (request) => {
      if (!isMovable(clock)) {
        throw badRequest('This server runs on a clock that cannot be moved.', 'advanceSeconds');
      }
      clock.advance(request.body.advanceSeconds * 1000);
      return { now: clock.now().toISOString() };
    },
  );
}
