import { runDueResponseSchema } from '@tunes/shared/billing';
import { BOOKS_MISMATCH_KINDS } from '@tunes/shared/books-codes';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { runBooksCheck } from './books-store.js';

const booksAnswer = z.object({
  startedAt: z.string(),
  finishedAt: z.string(),
  since: z.string().nullable(),
  trigger: z.enum(['job', 'command', 'console', 'dev']),
  invoicesAsked: z.number().int(),
  mismatches: z.array(
    z.object({
      kind: z.enum(BOOKS_MISMATCH_KINDS),
      invoiceId: z.string().optional(),
      subscriptionId: z.string().optional(),
      detail: z.string(),
    }),
  ),
  unchecked: z.array(z.object({ invoiceId: z.string(), detail: z.string() })),
  truncated: z.boolean(),
});

/**
 * `POST /dev/jobs/run-due` (product.md §12, development only): every job whose time has come by
 * the server's clock runs now, and the answer comes when they are done, so a test moves the
 * clock (`POST /dev/clock`) and walks a subscription through a year in seconds. `GET /dev/books`
 * checks the books now and answers the report (the e2e suite's teardown fails on a mismatch).
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
  routes.get(
    '/books',
    {
      schema: {
        tags: ['dev'],
        summary:
          'Check the books now (ledger, providers, periods) and answer the mismatches (development only)',
        querystring: z.object({ graceSeconds: z.coerce.number().int().min(0).max(86_400).optional() }),
        response: { 200: booksAnswer },
      },
    },
    (request) => {
      const { graceSeconds } = request.query;
      return runBooksCheck(
        app.deps,
        'dev',
        graceSeconds === undefined ? {} : { graceMs: graceSeconds * 1000 },
      );
    },
  );
}
