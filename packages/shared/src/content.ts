import { z } from 'zod';
import { toEmbedUrl } from './embed-url.js';
import { FEEDBACK_NAME_MAX_LENGTH, FEEDBACK_TEXT_MAX_LENGTH } from './feedback-rules.js';
import { emailSchema } from './validation.js';

/**
 * Landing data, content cards and feedback of product product.md §3, shared by the API (validation,
 * OpenAPI, `content:import`) and the site (types, feedback form). Messages are translation keys.
 */

export const CONTENT_TYPES = ['ARTIST', 'SONG', 'PLAYLIST'] as const;
export type ContentType = (typeof CONTENT_TYPES)[number];

export {
  FEEDBACK_NAME_MAX_LENGTH,
  FEEDBACK_SUCCESS_MESSAGE,
  FEEDBACK_TEXT_MAX_LENGTH,
} from './feedback-rules.js';
export const REEL_COUNT = 3;
const URL_MAX_LENGTH = 2048;
const TEXT_MAX_LENGTH = 500;

function isHttpUrl(value: string): boolean {
  try {
    const url = new URL(value);
    return (url.protocol === 'http:' || url.protocol === 'https:') && url.hostname.length > 0;
  } catch {
    return false;
  }
}

/** A link the site opens or embeds: absolute http(s) only, never `javascript:` or `data:`. */
export const httpUrlSchema = z
  .string()
  .trim()
  .max(URL_MAX_LENGTH)
  .refine(isHttpUrl, 'must be an http(s) URL');

/** An image: an http(s) URL, or a path on this site such as `/api/content/images/…`. */
export const imageUrlSchema = z
  .string()
  .trim()
  .max(URL_MAX_LENGTH)
  .refine(
    (value) => isHttpUrl(value) || /^\/(?!\/)[\w\-./]+$/.test(value),
    'must be an http(s) URL or a path on this site',
  );

const textSchema = z.string().trim().min(1).max(TEXT_MAX_LENGTH);

export const bannerTextSchema = z.object({ title: textSchema, description: textSchema });

/** A video link that `toEmbedUrl` can turn into an embed. */
export const videoUrlSchema = httpUrlSchema.refine(
  (value) => toEmbedUrl(value) !== null,
  'must be a YouTube (watch, youtu.be, Shorts, embed) or Facebook video link',
);

export const reelSchema = z.object({ url: videoUrlSchema, description: textSchema });
/** A reel as imported: the Mongolian description falls back to the English one when missing. */
export const reelInputSchema = reelSchema.extend({ descriptionMn: textSchema.optional() });

export const landingDataSchema = z
  .object({
    bannerDescEn: bannerTextSchema,
    bannerDescMn: bannerTextSchema,
    musicVideo: videoUrlSchema,
    musicVideoImage: imageUrlSchema,
    reels: z.array(reelSchema).length(REEL_COUNT),
  })
  .describe('LandingData');
export type LandingData = z.infer<typeof landingDataSchema>;

/** The landing data as imported: reels carry both languages. */
export const landingImportSchema = landingDataSchema.extend({
  reels: z.array(reelInputSchema).length(REEL_COUNT),
});

/**
 * A card as imported: `tunesUrl` is the product's page it links out to (spec `{product}Url`);
 * `title` is English, `titleMn` Mongolian (the English one when missing).
 */
export const contentCardInputSchema = z.object({
  type: z.enum(CONTENT_TYPES),
  title: textSchema,
  titleMn: textSchema.optional(),
  tunesUrl: httpUrlSchema,
  image: imageUrlSchema,
  /** Also listed under Trend songs (SONG cards). */
  trending: z.boolean().default(false),
});
export type ContentCardInput = z.input<typeof contentCardInputSchema>;

/** A card as a listener gets it: `title` in the language asked for. */
export const contentCardSchema = contentCardInputSchema
  .omit({ titleMn: true })
  .extend({ id: z.number().int(), trending: z.boolean() })
  .describe('ContentCard');
export type ContentCard = z.infer<typeof contentCardSchema>;

export const landingPageResponseSchema = z.object({ result: landingDataSchema });
export const contentCardsResponseSchema = z.object({ result: z.array(contentCardSchema) });

/** The file `npm run admin -- content:import <file.json>` reads: it replaces all content. */
export const contentImportSchema = z.object({
  landing: landingImportSchema,
  cards: z.array(contentCardInputSchema).max(1000),
});
export type ContentImport = z.input<typeof contentImportSchema>;
export type ParsedContentImport = z.infer<typeof contentImportSchema>;

/** The languages the landing data is served in (`?lang=`); English when not given. */
export const CONTENT_LANGUAGES = ['en', 'mn'] as const;
export type ContentLanguage = (typeof CONTENT_LANGUAGES)[number];
export const contentLanguageQuerySchema = z.object({ lang: z.enum(CONTENT_LANGUAGES).default('en') });

export const feedbackRequestSchema = z.object({
  name: z
    .string({ error: 'validation.required' })
    .trim()
    .min(1, 'validation.required')
    .max(FEEDBACK_NAME_MAX_LENGTH, 'content:feedback.name-too-long'),
  email: emailSchema,
  feedback: z
    .string({ error: 'validation.required' })
    .trim()
    .min(1, 'validation.required')
    .max(FEEDBACK_TEXT_MAX_LENGTH, 'content:feedback.feedback-too-long'),
});
export type FeedbackRequest = z.infer<typeof feedbackRequestSchema>;

export const feedbackResponseSchema = z.object({ message: z.string() });
