import { pauseRequestSchema, pauseSchema, pauseStateSchema } from '@tunes/shared/billing';
import { errorBodySchema } from '@tunes/shared/errors';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { pausePremium, pauseState, resumePremium } from './pause.js';
import { registerPauseJobs } from './pause-schedule.js';

const errors = { 400: errorBodySchema, 401: errorBodySchema, 403: errorBodySchema, 404: errorBodySchema };
const params = z.object({ id: z.uuid() });

/** Premium paused for 1–3 months and resumed (issue 37), and the pause's jobs. */
export default async function pauseRoutes(app: FastifyInstance) {
  const { deps } = app;
  const routes = app.withTypeProvider<ZodTypeProvider>();
  registerPauseJobs(app.jobs, deps);

  routes.get(
    '/users/me/pause',
    {
      onRequest: app.authenticate,
      schema: {
        tags: ['billing'],
        summary: 'Your pause, or whether your plan may be paused now',
        response: { 200: pauseStateSchema, ...errors },
      },
    },
    (request) => pauseState(deps, request.userId),
  );

  routes.post(
    '/subscriptions/:id/pause',
    {
      onRequest: app.authenticate,
      schema: {
        tags: ['billing'],
        summary: 'Pause Premium for 1, 2 or 3 months from the end of the paid period',
        description:
          'Members pause with the owner; the renewal moves by the span and the card is charged on the resumption day. 409: `already_paused`, `renewal_pending`, `needs_card`, `not_renewing`, `plan_not_pausable`, `trial_not_pausable`.',
        params,
        body: pauseRequestSchema,
        response: { 200: pauseSchema, ...errors, 409: errorBodySchema },
      },
    },
    (request) => pausePremium(deps, request.userId, request.params.id, request.body.months, request.log),
  );

  routes.delete(
    '/subscriptions/:id/pause',
    {
      onRequest: app.authenticate,
      schema: {
        tags: ['billing'],
        summary: 'Resume early: withdraw a pause not begun, or end one under way with a charge now',
        params,
        response: {
          200: z.object({ outcome: z.string() }),
          ...errors,
          409: errorBodySchema,
        },
      },
    },
    (request) => resumePremium(deps, request.userId, request.params.id, request.log),
  );
}
