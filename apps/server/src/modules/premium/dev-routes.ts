import { errorBodySchema } from '@tunes/shared/errors';
import { merchantCodeSchema } from '@tunes/shared/premium';
import { SOURCE_TYPES, subscriptionSchema } from '@tunes/shared/profile';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { badRequest, notFound } from '../../lib/errors.js';
import { listPaymentLog } from '../providers/payment-log.js';
import { recordGrant } from './ledger.js';
import { addMonths } from './period.js';
import { findPlanByCode } from './plans.js';
import { subscriptionView } from './subscriptions.js';
import './tables.js';

/**
 * Development tools (never in production): give a user a subscription without paying (any
 * source, e.g. Apple IAP to see the store note, or a Duo/Family plan for family tests), and read
 * an invoice's payment log.
 */
export default async function premiumDevRoutes(app: FastifyInstance) {
  const routes = app.withTypeProvider<ZodTypeProvider>();
  const { deps } = app;
  const { db, clock } = deps;

  routes.post(
    '/premium/subscriptions',
    {
      schema: {
        tags: ['dev'],
        summary: 'Give a user a subscription period (development only)',
        body: z.object({
          userId: z.uuid(),
          MerchantCode: merchantCodeSchema,
          SourceType: z.enum(SOURCE_TYPES).default('Web'),
          IsAutoRenew: z.boolean().default(true),
          months: z.number().int().min(1).max(24).default(1),
        }),
        response: { 201: subscriptionSchema, 400: errorBodySchema, 404: errorBodySchema },
      },
    },
    async (request, reply) => {
      const { userId, MerchantCode, SourceType, IsAutoRenew, months } = request.body;
      const plan = await findPlanByCode(deps, MerchantCode);
      if (!plan) throw badRequest(`There is no plan with the code ${MerchantCode}.`, 'MerchantCode');
      const user = await db.selectFrom('users').select('id').where('id', '=', userId).executeTakeFirst();
      if (!user) throw notFound('There is no such user.');
      const now = clock.now();
      const created = await db
        .insertInto('subscriptions')
        .values({
          owner_id: userId,
          package_id: plan.id,
          start_date: now,
          end_date: addMonths(now, months),
          is_auto_renew: IsAutoRenew,
          source_type: SourceType,
        })
        .returning('id')
        .executeTakeFirstOrThrow();
      // Access given without money is a ledger row of its own, so the books check finds it backed.
      await recordGrant(db, {
        subscriptionId: created.id,
        method: 'extension',
        reference: `dev:${created.id}`,
        reason: 'given by a development tool',
        now,
      });
      return reply.code(201).send(await subscriptionView(deps, created.id));
    },
  );

  routes.get(
    '/premium/payment-log',
    {
      schema: {
        tags: ['dev'],
        summary: "An invoice's payment log, oldest first (development only)",
        querystring: z.object({ invoiceId: z.string().min(1).max(200) }),
      },
    },
    async (request) => {
      const rows = await listPaymentLog(deps, request.query.invoiceId);
      return rows.map((row) => ({
        orderNumber: row.order_number,
        subscriberName: row.subscriber_name,
        packageName: row.package_name,
        purchasePrice: row.purchase_price,
        currentProcess: row.current_process,
        tgUserId: row.user_id,
        type: row.type,
        message: row.message,
        request: row.request,
        response: row.response,
        createdAt: row.created_at.toISOString(),
      }));
    },
  );
}
