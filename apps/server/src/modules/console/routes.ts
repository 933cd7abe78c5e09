import {
  auditQuerySchema,
  cancelSchema,
  cardFieldsSchema,
  cardOrderSchema,
  cardPatchSchema,
  createOperatorSchema,
  dashboardQuerySchema,
  draftLandingSchema,
  extendSchema,
  refundRequestSchema,
  setupCompleteSchema,
  setupStartSchema,
  signInSchema,
  updateOperatorSchema,
  userSearchSchema,
  voucherBatchRequestSchema,
} from '@tunes/shared/console';
import { contentLanguageQuerySchema } from '@tunes/shared/content';
import { errorBodySchema } from '@tunes/shared/errors';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { IMAGE_MAX_BYTES, storeImage } from '../content/uploads.js';
import { audit, listAudit } from './audit.js';
import consoleBooksRoutes from './books-routes.js';
import {
  addCard,
  contentOverview,
  deleteCard,
  discardDraft,
  orderCards,
  patchCard,
  previewDraft,
  publishDraft,
  updateLanding,
} from './content-draft.js';
import { dashboard } from './dashboard.js';
import {
  clearSessionCookie,
  guardConsoleScope,
  operatorOf,
  requireConsoleHeader,
  requireRole,
  sessionToken,
  setSessionCookie,
} from './guard.js';
import {
  completeSetup,
  createOperator,
  endSessionByToken,
  listOperators,
  reissueSetupLink,
  signIn,
  startSetup,
  updateOperator,
} from './operators.js';
import consoleReadinessRoutes from './readiness-routes.js';
import { refundPayment } from './refunds.js';
import {
  cancelSubscription,
  endUserSessions,
  extendSubscription,
  resendReceipt,
  searchUsers,
  userDetail,
} from './support.js';
import { batchCsv, createBatch, listBatches, revokeBatch, voucherPackages } from './voucher-batches.js';

const TAGS = ['console'];
const SECURED = [{ operatorSession: [] }];
/** Success bodies are described in docs/console-api.md; the error shape is the API's one. */
const success = z.any();
const errors = {
  200: success,
  201: success,
  204: success,
  400: errorBodySchema,
  401: errorBodySchema,
  403: errorBodySchema,
  404: errorBodySchema,
  409: errorBodySchema,
};
const id = z.object({ id: z.string().max(64) });
const userAndSubscription = z.object({ id: z.string().max(64), subscriptionId: z.string().max(64) });
const userAndInvoice = z.object({ id: z.string().max(64), invoiceId: z.string().max(200) });
const empty = z.object({}).optional();
const IMAGE_TYPES = ['image/png', 'image/jpeg', 'image/webp'];

/**
 * The operator console's API under /api/admin (docs/console-api.md, DESIGN §9): operators sign
 * in with password and TOTP; every route checks the role on the server; listeners get 403.
 */
export default async function consoleRoutes(app: FastifyInstance) {
  const { deps } = app;
  const secure = deps.config.isProduction;
  guardConsoleScope(app);
  app.addContentTypeParser(
    IMAGE_TYPES,
    { parseAs: 'buffer', bodyLimit: IMAGE_MAX_BYTES },
    (_request, body, done) => done(null, body),
  );
  const api = app.withTypeProvider<ZodTypeProvider>();
  const content = requireRole(app, 'content');
  const support = requireRole(app, 'support');
  const admin = requireRole(app);
  const anyRole = requireRole(app, 'content', 'support');
  await app.register(consoleBooksRoutes);
  await app.register(consoleReadinessRoutes);

  // --- set-up and sign-in ---------------------------------------------------------------
  api.post(
    '/setup/start',
    {
      onRequest: requireConsoleHeader,
      schema: {
        tags: TAGS,
        summary: 'Start an operator set-up: a new TOTP secret and its QR',
        body: setupStartSchema,
        response: errors,
      },
    },
    (request) => startSetup(deps, request.body.token),
  );
  api.post(
    '/setup/complete',
    {
      onRequest: requireConsoleHeader,
      schema: {
        tags: TAGS,
        summary: 'Finish set-up: password and the first TOTP code; signs in',
        body: setupCompleteSchema,
        response: errors,
      },
    },
    async (request, reply) => {
      const { operator, sessionToken: token } = await completeSetup(deps, request.body);
      setSessionCookie(reply, token, secure);
      return { operator };
    },
  );
  api.post(
    '/session',
    {
      onRequest: requireConsoleHeader,
      schema: {
        tags: TAGS,
        summary: 'Sign in with e-mail, password and TOTP code',
        body: signInSchema,
        response: { ...errors, 429: errorBodySchema },
      },
    },
    async (request, reply) => {
      const { operator, sessionToken: token } = await signIn(deps, request.body, request.ip);
      setSessionCookie(reply, token, secure);
      return { operator };
    },
  );
  api.delete(
    '/session',
    { onRequest: requireConsoleHeader, schema: { tags: TAGS, summary: 'Sign out of the console' } },
    async (request, reply) => {
      const token = sessionToken(request);
      if (token) await endSessionByToken(deps, token);
      clearSessionCookie(reply, secure);
      return reply.code(204).send();
    },
  );
  api.get(
    '/me',
    {
      onRequest: anyRole,
      schema: { tags: TAGS, summary: 'The signed-in operator', security: SECURED, response: errors },
    },
    (request) => {
      const session = operatorOf(request);
      return {
        operator: session.operator,
        session: {
          expiresAt: session.expiresAt.toISOString(),
          idleExpiresAt: session.idleExpiresAt.toISOString(),
        },
      };
    },
  );

  // --- content --------------------------------------------------------------------------
  const actor = (request: Parameters<typeof operatorOf>[0]) => ({
    operatorId: operatorOf(request).operator.id,
  });
  api.get(
    '/content',
    {
      onRequest: content,
      schema: {
        tags: TAGS,
        summary: 'The content draft and what is published',
        security: SECURED,
        response: errors,
      },
    },
    () => contentOverview(deps),
  );
  api.put(
    '/content/landing',
    {
      onRequest: content,
      schema: {
        tags: TAGS,
        summary: 'Replace the draft banner, music video and reels',
        security: SECURED,
        body: draftLandingSchema,
        response: errors,
      },
    },
    (request) => updateLanding(deps, actor(request), request.body),
  );
  api.post(
    '/content/cards',
    {
      onRequest: content,
      schema: {
        tags: TAGS,
        summary: 'Add a card to the draft',
        security: SECURED,
        body: cardFieldsSchema,
        response: errors,
      },
    },
    async (request, reply) => reply.code(201).send(await addCard(deps, actor(request), request.body)),
  );
  api.put(
    '/content/cards/order',
    {
      onRequest: content,
      schema: {
        tags: TAGS,
        summary: 'Order the draft cards of one type',
        security: SECURED,
        body: cardOrderSchema,
        response: errors,
      },
    },
    (request) => orderCards(deps, actor(request), request.body.type, request.body.ids),
  );
  api.patch(
    '/content/cards/:id',
    {
      onRequest: content,
      schema: {
        tags: TAGS,
        summary: 'Change a draft card',
        security: SECURED,
        params: id,
        body: cardPatchSchema,
        response: errors,
      },
    },
    (request) => patchCard(deps, actor(request), request.params.id, request.body),
  );
  api.delete(
    '/content/cards/:id',
    {
      onRequest: content,
      schema: { tags: TAGS, summary: 'Delete a draft card', security: SECURED, params: id, response: errors },
    },
    async (request, reply) => {
      await deleteCard(deps, actor(request), request.params.id);
      return reply.code(204).send();
    },
  );
  api.post(
    '/content/images',
    {
      onRequest: content,
      schema: {
        tags: TAGS,
        summary: 'Upload an image (PNG, JPEG or WebP, at most 2 MB; raw bytes)',
        security: SECURED,
        response: { ...errors, 413: errorBodySchema, 415: errorBodySchema },
      },
    },
    async (request, reply) => {
      const body = request.body;
      if (!Buffer.isBuffer(body)) {
        return reply.code(415).send({
          error: 'unsupported_media_type',
          message: 'Send the image bytes as image/png, image/jpeg or image/webp.',
        });
      }
      const operatorId = operatorOf(request).operator.id;
      const url = await deps.db.transaction().execute(async (trx) => {
        const stored = await storeImage({ db: trx, clock: deps.clock }, body);
        await audit(trx, deps.clock.now(), {
          operatorId,
          action: 'content.image.upload',
          targetType: 'image',
          targetId: stored,
          after: { bytes: body.length },
        });
        return stored;
      });
      return reply.code(201).send({ url });
    },
  );
  api.get(
    '/content/preview',
    {
      onRequest: content,
      schema: {
        tags: TAGS,
        summary: 'The landing answers a listener would get from the draft',
        security: SECURED,
        querystring: contentLanguageQuerySchema,
        response: errors,
      },
    },
    (request) => previewDraft(deps, request.query.lang),
  );
  api.post(
    '/content/publish',
    {
      onRequest: content,
      schema: {
        tags: TAGS,
        summary: 'Publish the draft to every listener at once',
        security: SECURED,
        body: empty,
        response: errors,
      },
    },
    (request) => publishDraft(deps, actor(request)),
  );
  api.post(
    '/content/discard',
    {
      onRequest: content,
      schema: {
        tags: TAGS,
        summary: 'Reset the draft to what is published',
        security: SECURED,
        body: empty,
        response: errors,
      },
    },
    (request) => discardDraft(deps, actor(request)),
  );

  // --- support --------------------------------------------------------------------------
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

  // --- admin: vouchers, refunds, operators, dashboard, audit ------------------------------
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
  api.post(
    '/payments/:invoiceId/refund',
    {
      onRequest: admin,
      schema: {
        tags: TAGS,
        summary: 'Refund all or part of a payment at its provider (card gateway or QPay), once',
        security: SECURED,
        params: z.object({ invoiceId: z.string().max(200) }),
        body: refundRequestSchema,
        response: { ...errors, 502: errorBodySchema },
      },
    },
    (request) =>
      refundPayment(app.deps, operatorOf(request).operator.id, request.params.invoiceId, request.body),
  );
  api.get(
    '/operators',
    {
      onRequest: admin,
      schema: { tags: TAGS, summary: 'Every operator', security: SECURED, response: errors },
    },
    async () => ({ operators: await listOperators(deps.db) }),
  );
  api.post(
    '/operators',
    {
      onRequest: admin,
      schema: {
        tags: TAGS,
        summary: 'Add an operator; answers their set-up link',
        security: SECURED,
        body: createOperatorSchema,
        response: errors,
      },
    },
    async (request, reply) =>
      reply.code(201).send(await createOperator(deps, request.body, operatorOf(request).operator.id)),
  );
  api.patch(
    '/operators/:id',
    {
      onRequest: admin,
      schema: {
        tags: TAGS,
        summary: "Change an operator's role or disable them",
        security: SECURED,
        params: id,
        body: updateOperatorSchema,
        response: errors,
      },
    },
    async (request) => ({
      operator: await updateOperator(deps, operatorOf(request).operator.id, request.params.id, request.body),
    }),
  );
  api.post(
    '/operators/:id/setup-link',
    {
      onRequest: admin,
      schema: {
        tags: TAGS,
        summary: 'A fresh set-up link for an operator',
        security: SECURED,
        params: id,
        body: empty,
        response: errors,
      },
    },
    async (request) => ({
      setupUrl: await reissueSetupLink(deps, operatorOf(request).operator.id, request.params.id),
    }),
  );
  api.get(
    '/dashboard',
    {
      onRequest: admin,
      schema: {
        tags: TAGS,
        summary: 'Subscriptions and revenue per day',
        security: SECURED,
        querystring: dashboardQuerySchema,
        response: errors,
      },
    },
    (request) => dashboard(deps, Number(request.query.days)),
  );
  api.get(
    '/audit',
    {
      onRequest: admin,
      schema: {
        tags: TAGS,
        summary: 'The audit log, newest first',
        security: SECURED,
        querystring: auditQuerySchema,
        response: errors,
      },
    },
    (request) => listAudit(deps.db, request.query),
  );
}
