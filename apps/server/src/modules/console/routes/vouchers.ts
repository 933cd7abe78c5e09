import { voucherBatchRequestSchema } from '@tunes/shared/console';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { operatorOf, requireRole } from '../guard.js';
import { batchCsv, createBatch, listBatches, revokeBatch, voucherPackages } from '../voucher-batches.js';
import { empty, errors, id, SECURED, TAGS } from './schemas.js';

/** Voucher batches (admin): packages, list, make, codes as CSV, revoke. */
export default async function consoleVoucherRoutes(app: FastifyInstance) {
  const { deps } = app;
  const api = app.withTypeProvider<ZodTypeProvider>();
  const admin = requireRole(app);
  api.get(
    '/vouchers/packages',
    {
      onRequest: admin,
      schema: {
        tags: TAGS,
        summary: 'Packages a voucher batch may use',
        security: SECURED,
        response: errors,
      },
    },
    async () => ({ packages: await voucherPackages(deps) }),
  );
  api.get(
    '/vouchers/batches',
    {
      onRequest: admin,
      schema: { tags: TAGS, summary: 'Voucher batches, newest first', security: SECURED, response: errors },
    },
    async () => ({ batches: await listBatches(deps) }),
  );
  api.post(
    '/vouchers/batches',
    {
      onRequest: admin,
      schema: {
        tags: TAGS,
        summary: 'Make a voucher batch',
        security: SECURED,
        body: voucherBatchRequestSchema,
        response: errors,
      },
    },
    async (request, reply) =>
      reply.code(201).send({ batch: await createBatch(deps, operatorOf(request).operator.id, request.body) }),
  );
  api.get(
    '/vouchers/batches/:id/codes.csv',
    {
      onRequest: admin,
      schema: {
        tags: TAGS,
        summary: 'The codes of a batch as CSV',
        security: SECURED,
        params: id,
        response: errors,
      },
    },
    async (request, reply) => {
      const csv = await batchCsv(deps, request.params.id);
      return reply
        .type('text/csv; charset=utf-8')
        .header('content-disposition', `attachment; filename="vouchers-${request.params.id}.csv"`)
        .header('cache-control', 'no-store')
        .send(csv);
    },
  );
  api.post(
    '/vouchers/batches/:id/revoke',
    {
      onRequest: admin,
      schema: {
        tags: TAGS,
        summary: 'Revoke the unused codes of a batch',
        security: SECURED,
        params: id,
        body: empty,
        response: errors,
      },
    },
    (request) => revokeBatch(deps, operatorOf(request).operator.id, request.params.id),
  );
}
