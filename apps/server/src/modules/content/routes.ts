import {
  contentCardsResponseSchema,
  feedbackRequestSchema,
  feedbackResponseSchema,
  landingPageResponseSchema,
} from '@tunes/shared/content';
import { errorBodySchema } from '@tunes/shared/errors';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { notFound } from '../../lib/errors.js';
import { listContentCards, readContentRevision, readLandingData } from './content-store.js';
import { demoImages } from './demo-content.js';
import { IMAGE_ROUTE_PREFIX } from './demo-images.js';
import { submitFeedback } from './feedback.js';
import { type CachedAnswer, ContentAnswerCache } from './response-cache.js';

/** How stale a process's copy of the content may be after an import (see response-cache.ts). */
const CONTENT_CACHE_TTL_MS = 1000;
const YEAR_SECONDS = 31_536_000;

function sendCached(request: FastifyRequest, reply: FastifyReply, answer: CachedAnswer) {
  reply.header('etag', answer.etag).header('cache-control', 'no-cache');
  if (request.headers['if-none-match'] === answer.etag) return reply.code(304).send();
  return reply.type('application/json; charset=utf-8').send(answer.body);
}

export default async function contentRoutes(app: FastifyInstance) {
  const { deps } = app;
  const cache = new ContentAnswerCache(
    () => readContentRevision(deps),
    () => deps.clock.now().getTime(),
    CONTENT_CACHE_TTL_MS,
  );
  const imagesByFile = new Map([...demoImages.values()].map((image) => [image.path.split('/').pop(), image]));
  const api = app.withTypeProvider<ZodTypeProvider>();

  api.get(
    '/landing-page',
    {
      schema: {
        tags: ['content'],
        summary: 'Banner texts, featured music video and three reels of the landing page',
        response: { 200: landingPageResponseSchema, 404: errorBodySchema },
      },
    },
    async (request, reply) => {
      const answer = await cache.get('landing', async () => {
        const landing = await readLandingData(deps);
        return landing && { result: landing };
      });
      if (!answer) throw notFound('No landing content has been imported yet.');
      return sendCached(request, reply, answer);
    },
  );

  api.get(
    '/landing-page/contents/list/ALL',
    {
      schema: {
        tags: ['content'],
        summary: 'Every content card (ARTIST, SONG, PLAYLIST) in display order',
        response: { 200: contentCardsResponseSchema },
      },
    },
    async (request, reply) => {
      const answer = await cache.get('cards', async () => ({ result: await listContentCards(deps) }));
      // The card loader never answers null; an empty list is a valid answer.
      return sendCached(request, reply, answer as CachedAnswer);
    },
  );

  api.get(
    `${IMAGE_ROUTE_PREFIX.replace(/^\/api/, '')}/:file`,
    {
      schema: {
        tags: ['content'],
        summary: 'Artwork of the demo content (SVG), cached for a year under content-hashed names',
        params: z.object({ file: z.string().max(120) }),
      },
    },
    async (request, reply) => {
      const image = imagesByFile.get(request.params.file);
      if (!image) throw notFound('No such image.');
      return reply
        .header('cache-control', `public, max-age=${YEAR_SECONDS}, immutable`)
        .type('image/svg+xml')
        .send(image.body);
    },
  );

  api.post(
    '/feedback',
    {
      schema: {
        tags: ['content'],
        summary: 'Send feedback from the contact page (throttled per e-mail and per client)',
        body: feedbackRequestSchema,
        response: { 200: feedbackResponseSchema, 400: errorBodySchema, 429: errorBodySchema },
      },
    },
    (request) => submitFeedback(deps, request.body, request.ip),
  );
}
