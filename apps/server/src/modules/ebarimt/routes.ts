import {
  companyReceiptRequestSchema,
  companyRegistryParamsSchema,
  companySchema,
} from '@tunes/shared/billing';
import { errorBodySchema } from '@tunes/shared/errors';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { companyView, findCompany, requestCompanyReceipt } from './company-receipt.js';
import { ebarimtJobKind } from './jobs.js';

const errors = { 400: errorBodySchema, 401: errorBodySchema, 404: errorBodySchema, 429: errorBodySchema };
const invoiceParams = z.object({ invoiceId: z.string().trim().min(1).max(200) });

/**
 * e-barimt (product.md §12): the VAT receipt of every paid invoice, issued by the job queue; a
 * company's name by its registry number; a company receipt asked for from the payment history.
 */
export default async function ebarimtRoutes(app: FastifyInstance) {
  const { deps } = app;
  const routes = app.withTypeProvider<ZodTypeProvider>();
  // A production site that opted out (ALLOW_NO_EBARIMT) keeps the requests until it opts in.
  if (deps.config.ebarimtEnabled) app.jobs.register(ebarimtJobKind(deps));

  routes.get(
    '/ebarimt/companies/:registry',
    {
      onRequest: app.authenticate,
      schema: {
        tags: ['ebarimt'],
        summary: "A company's name by its registry number (for a company e-barimt)",
        params: companyRegistryParamsSchema,
        response: { 200: companySchema, ...errors, 502: errorBodySchema },
      },
    },
    async (request) => companyView(await findCompany(deps, request.userId, request.params.registry)),
  );

  routes.post(
    '/users/me/receipts/:invoiceId/company-receipt',
    {
      onRequest: app.authenticate,
      schema: {
        tags: ['ebarimt'],
        summary: 'Issue the e-barimt of a paid invoice to a company instead (replaces the citizen one)',
        params: invoiceParams,
        body: companyReceiptRequestSchema,
        response: {
          202: z.object({ status: z.literal('pending'), company: companySchema }),
          ...errors,
          409: errorBodySchema,
          502: errorBodySchema,
        },
      },
    },
    async (request, reply) => {
      const answer = await requestCompanyReceipt(
        deps,
        request.userId,
        request.params.invoiceId,
        request.body.registry,
      );
      return reply.code(202).send(answer);
    },
  );
}
