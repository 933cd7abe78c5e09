import {
  contentCardsResponseSchema,
  contentLanguageQuerySchema,
  feedbackRequestSchema,
  feedbackResponseSchema,
  landingPageResponseSchema,
} from '@tunes/shared/content';
import { errorBodySchema } from '@tunes/shared/errors';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { AnswerCache, sendCachedAnswer } from '../../lib/answer-cache.js';
import { notFound } from '../../lib/errors.js';
import { CONTENT_PUBLISHED_CHANNEL, onContentPublished } from './content-events.js';
import { listContentCards, readContentRevision, readLandingData } from './content-store.js';
import { demoImages } from './demo-content.js';
import { IMAGE_ROUTE_PREFIX } from './demo-images.js';
import { submitFeedback } from './feedback.js';
import { readUploadedImage, UPLOAD_ROUTE } from './uploads.js';

/** How stale a process's copy of the content may be after an import (see lib/answer-cache.ts). */
const CONTENT_CACHE_TTL_MS = 1000;
const YEAR_SECONDS = 31_536_000;

export default async function contentRoutes(app: FastifyInstance) {
  const { deps } = app;
  const cache = new AnswerCache(
    () => readContentRevision(deps),
    () => deps.clock.now().getTime(),
    CONTENT_CACHE_TTL_MS,
  );
  // A publish (console) drops this process's copies at once; other processes hear of it
  // through Redis when configured, and otherwise by the revision within CONTENT_CACHE_TTL_MS.
  const stopListening = onContentPublished(deps, () => cache.invalidate());
  app.addHook('onClose', async () => stopListening());
  if (deps.redis) {
    const subscriber = deps.redis.duplicate();
    subscriber.on('message', () => cache.invalidate());
    subscriber.on('error', (error) => app.log.warn({ err: error }, 'content publish subscription'));
    await subscriber.subscribe(CONTENT_PUBLISHED_CHANNEL).catch((error: unknown) => {
      app.log.warn({ err: error }, 'content publish subscription failed; the revision check remains');
    });
    app.addHook('onClose', async () => {
      subscriber.disconnect();
    });
  }
  const imagesByFile = new Map([...demoImages.values()].map((image) => [image.path.split('/').pop(), image]));
  const api = app.withTypeProvider<ZodTypeProvider>();

  api.get(
    '/landing-page',
    {
      compress: false,
      schema: {
        tags: ['content'],
        summary: 'Banner texts, featured music video and three reels of the landing page',
        description: 'Reel descriptions come in `lang` (en or mn; English when not given).',
        querystring: contentLanguageQuerySchema,
        response: { 200: landingPageResponseSchema, 404: errorBodySchema },
      },
    },
    async (request, reply) => {
      const { lang } = request.query;
      const answer = await cache.get(`landing:${lang}`, async () => {
        const landing = await readLandingData(deps, lang);
        return landing && { result: landing };
      });
      if (!answer) throw notFound('No landing content has been imported yet.');
      return sendCachedAnswer(request, reply, answer);
    },
  );

  api.get(
    '/landing-page/contents/list/ALL',
    {
      compress: false,
      schema: {
        tags: ['content'],
        summary: 'Every content card (ARTIST, SONG, PLAYLIST) in display order',
        description: 'Card titles come in `lang` (en or mn; English when not given).',
        querystring: contentLanguageQuerySchema,
        response: { 200: contentCardsResponseSchema },
      },
    },
    async (request, reply) => {
      const { lang } = request.query;
      const answer = await cache.get(`cards:${lang}`, async () => ({
        result: await listContentCards(deps, lang),
      }));
      // The card loader never answers null; an empty list is a valid answer.
      return sendCachedAnswer(request, reply, answer);
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

  api.get(
    `${UPLOAD_ROUTE.replace(/^\/api/, '')}/:file`,
    {
      schema: {
        tags: ['content'],
        summary: 'An image uploaded in the console (PNG, JPEG or WebP), named by its SHA-256',
        params: z.object({ file: z.string().max(80) }),
      },
    },
    async (request, reply) => {
      const image = await readUploadedImage(deps, request.params.file);
      if (!image) throw notFound('No such image.');
      return reply
        .header('cache-control', `public, max-age=${YEAR_SECONDS}, immutable`)
        .type(image.contentType)
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
