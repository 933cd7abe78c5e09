import {
  cardFieldsSchema,
  cardOrderSchema,
  cardPatchSchema,
  draftLandingSchema,
} from '@tunes/shared/console';
import { contentLanguageQuerySchema } from '@tunes/shared/content';
import { API_ERROR_CODES } from '@tunes/shared/error-codes';
import { errorBodySchema } from '@tunes/shared/errors';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { storeImage } from '../../content/uploads.js';
import { audit } from '../audit.js';
import { contentOverview, discardDraft, previewDraft, publishDraft } from '../content-draft.js';
import { addCard, deleteCard, orderCards, patchCard, updateLanding } from '../content-draft-edits.js';
import { operatorOf, requireRole } from '../guard.js';
import { empty, errors, id, SECURED, TAGS } from './schemas.js';

/** The content draft (role content): landing, cards, images, preview, publish and discard. */
export default async function consoleContentRoutes(app: FastifyInstance) {
  const { deps } = app;
  const api = app.withTypeProvider<ZodTypeProvider>();
  const content = requireRole(app, 'content');
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
          error: API_ERROR_CODES.unsupportedMediaType,
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
}
