import { cancelSchema, extendSchema, userSearchSchema } from '@tunes/shared/console';
import { errorBodySchema } from '@tunes/shared/errors';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { operatorOf, requireRole } from '../guard.js';
import { searchUsers, userDetail } from '../support.js';
import { endUserSessions, resendReceipt } from '../support-account.js';
import { cancelSubscription, extendSubscription } from '../support-subscriptions.js';
import { empty, errors, id, SECURED, TAGS, userAndInvoice, userAndSubscription } from './schemas.js';

/** Support (role support): find a listener, extend or cancel, resend a receipt, sign them out. */
export default async function consoleSupportRoutes(app: FastifyInstance) {
  const { deps } = app;
  const api = app.withTypeProvider<ZodTypeProvider>();
  const support = requireRole(app, 'support');
  api.get(
    '/users',
    {
      onRequest: support,
      schema: {
        tags: TAGS,
        summary: 'Find listeners by phone, e-mail or id',
        security: SECURED,
        querystring: userSearchSchema,
        response: errors,
      },
    },
    async (request) => ({ users: await searchUsers(deps, request.query.q) }),
  );
  api.get(
    '/users/:id',
    {
      onRequest: support,
      schema: {
        tags: TAGS,
        summary: 'A listener as support sees them',
        security: SECURED,
        params: id,
        response: errors,
      },
    },
    (request) => userDetail(deps, request.params.id),
  );
  api.post(
    '/users/:id/subscriptions/:subscriptionId/extend',
    {
      onRequest: support,
      schema: {
        tags: TAGS,
        summary: 'Extend a period by some days',
        security: SECURED,
        params: userAndSubscription,
        body: extendSchema,
        response: errors,
      },
    },
    async (request) => ({
      subscription: await extendSubscription(
        deps,
        operatorOf(request).operator,
        request.params.id,
        request.params.subscriptionId,
        request.body.days,
      ),
    }),
  );
  api.post(
    '/users/:id/subscriptions/:subscriptionId/cancel',
    {
      onRequest: support,
      schema: {
        tags: TAGS,
        summary: 'Cancel renewal, or end the period now',
        security: SECURED,
        params: userAndSubscription,
        body: cancelSchema,
        response: errors,
      },
    },
    async (request) => ({
      subscription: await cancelSubscription(
        deps,
        operatorOf(request).operator.id,
        request.params.id,
        request.params.subscriptionId,
        request.body.immediately,
      ),
    }),
  );
  api.post(
    '/users/:id/payments/:invoiceId/resend-receipt',
    {
      onRequest: support,
      schema: {
        tags: TAGS,
        summary: 'Send the receipt of a paid invoice again',
        security: SECURED,
        params: userAndInvoice,
        body: empty,
        response: { ...errors, 429: errorBodySchema },
      },
    },
    (request) =>
      resendReceipt(deps, operatorOf(request).operator.id, request.params.id, request.params.invoiceId),
  );
  api.post(
    '/users/:id/sessions/end',
    {
      onRequest: support,
      schema: {
        tags: TAGS,
        summary: 'Sign the listener out everywhere',
        security: SECURED,
        params: id,
        body: empty,
        response: errors,
      },
    },
    (request) => endUserSessions(deps, operatorOf(request).operator.id, request.params.id),
  );
}
