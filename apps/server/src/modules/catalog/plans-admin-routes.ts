import {
  planBadgeRequestSchema,
  planCodeSchema,
  planCreateSchema,
  planOrderSchema,
  planPriceSchema,
  planTrialRequestSchema,
} from '@tunes/shared/catalog';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { operatorOf, requireRole } from '../console/guard.js';
import { empty, errors, SECURED, TAGS } from '../console/routes/schemas.js';
import { changePrice, createPlan, reorderPlans, setBadge, setOnSale, setTrialDays } from './plans-admin.js';
import { listConsolePlans } from './plans-list.js';

const code = z.object({ code: planCodeSchema });

/**
 * The console's plans (admin only; docs/console-api.md "Plans"), registered inside the console's
 * scope (`/api/admin`) by app.ts, so the listener-token refusal applies. Every change answers the
 * list as it now stands.
 */
export default async function consolePlanRoutes(app: FastifyInstance) {
  const { deps } = app;
  const api = app.withTypeProvider<ZodTypeProvider>();
  const admin = requireRole(app);
  const plans = async () => ({ plans: await listConsolePlans(deps) });
  const route = (summary: string) => ({ tags: TAGS, summary, security: SECURED, response: errors });

  api.get(
    '/plans',
    { onRequest: admin, schema: route('The plans, in the order /premium shows them') },
    plans,
  );
  api.post(
    '/plans',
    {
      onRequest: admin,
      schema: { ...route('Create a plan, on sale, last in the order'), body: planCreateSchema },
    },
    async (request, reply) => {
      await createPlan(deps, operatorOf(request).operator.id, request.body);
      return reply.code(201).send(await plans());
    },
  );
  api.post(
    '/plans/:code/retire',
    {
      onRequest: admin,
      schema: { ...route('Take a plan off sale (subscribers keep it)'), params: code, body: empty },
    },
    async (request) => {
      await setOnSale(deps, operatorOf(request).operator.id, request.params.code, false);
      return plans();
    },
  );
  api.post(
    '/plans/:code/restore',
    { onRequest: admin, schema: { ...route('Put a retired plan back on sale'), params: code, body: empty } },
    async (request) => {
      await setOnSale(deps, operatorOf(request).operator.id, request.params.code, true);
      return plans();
    },
  );
  api.put(
    '/plans/order',
    { onRequest: admin, schema: { ...route('Order every plan'), body: planOrderSchema } },
    async (request) => {
      await reorderPlans(deps, operatorOf(request).operator.id, request.body.codes);
      return plans();
    },
  );
  api.put(
    '/plans/:code/badge',
    {
      onRequest: admin,
      schema: { ...route('Set or clear a plan’s badge'), params: code, body: planBadgeRequestSchema },
    },
    async (request) => {
      await setBadge(deps, operatorOf(request).operator.id, request.params.code, request.body.badge);
      return plans();
    },
  );
  api.put(
    '/plans/:code/trial',
    {
      onRequest: admin,
      schema: {
        ...route('Set a plan’s free days for a first-time trial (0: none)'),
        params: code,
        body: planTrialRequestSchema,
      },
    },
    async (request) => {
      await setTrialDays(deps, operatorOf(request).operator.id, request.params.code, request.body.trialDays);
      return plans();
    },
  );
  api.post(
    '/plans/:code/price',
    {
      onRequest: admin,
      schema: {
        ...route('A new price, with notice to current subscribers'),
        params: code,
        body: planPriceSchema,
      },
    },
    async (request) => {
      const change = await changePrice(
        deps,
        operatorOf(request).operator.id,
        request.params.code,
        request.body.price,
      );
      return {
        change: {
          ...change,
          changedAt: change.changedAt.toISOString(),
          takesEffectAt: change.takesEffectAt.toISOString(),
        },
        ...(await plans()),
      };
    },
  );
}
