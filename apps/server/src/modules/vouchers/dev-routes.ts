import { errorBodySchema } from '@tunes/shared/errors';
import { createVouchersSchema } from '@tunes/shared/vouchers';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { createVouchers } from './voucher-codes.js';

/**
 * `POST /dev/vouchers` (development only) mirrors `npm run admin -- vouchers:create`: e2e tests
 * run while the server holds the PGlite directory, so the CLI cannot open it then.
 */
export default async function voucherDevRoutes(app: FastifyInstance) {
  app.withTypeProvider<ZodTypeProvider>().post(
    '/vouchers',
    {
      schema: {
        tags: ['dev'],
        summary: 'Create vouchers for a package (development only)',
        body: createVouchersSchema,
        response: {
          201: z.object({ codes: z.array(z.string()) }),
          400: errorBodySchema,
          404: errorBodySchema,
        },
      },
    },
    async (request, reply) => {
      const { codes } = await createVouchers(app.deps, request.body);
      return reply.code(201).send({ codes });
    },
  );
}
