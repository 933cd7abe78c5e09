import {
  type ContentCard,
  type ContentImport,
  type ContentLanguage,
  type ContentType,
  contentImportSchema,
  type LandingData,
  type ParsedContentImport,
} from '@tunes/shared/content';
import { type Kysely, sql } from 'kysely';
import type { Database } from '../../db/schema.js';
import type { Deps } from '../../deps.js';
import './tables.js';

/** The number every import bumps; reading it is one primary-key lookup. */
export async function readContentRevision(deps: Pick<Deps, 'db'>): Promise<number> {
  const row = await deps.db
    .selectFrom('content_state')
    .select('revision')
    .where('id', '=', 1)
    .executeTakeFirst();
  return Number(row?.revision ?? 0);
}

/** The stored landing data in both languages, or null before any content was imported. */
export async function readStoredLanding(
  deps: Pick<Deps, 'db'>,
): Promise<ParsedContentImport['landing'] | null> {
  const row = await deps.db.selectFrom('content_landing').selectAll().where('id', '=', 1).executeTakeFirst();
  if (!row) return null;
  const reels = typeof row.reels === 'string' ? (JSON.parse(row.reels) as typeof row.reels) : row.reels;
  return {
    bannerDescEn: { title: row.banner_title_en, description: row.banner_description_en },
    bannerDescMn: { title: row.banner_title_mn, description: row.banner_description_mn },
    musicVideo: row.music_video_url,
    musicVideoImage: row.music_video_image,
    reels: reels.map(({ url, description, descriptionMn }) => ({
      url,
      description,
      ...(descriptionMn ? { descriptionMn } : {}),
    })),
  };
}

/**
 * The landing data as a listener gets it in `lang` (the spec's shape): both banners, the reels'
 * descriptions in `lang` (Mongolian falls back to English). Also builds the console's preview.
 */
export function landingFor(landing: ParsedContentImport['landing'], lang: ContentLanguage): LandingData {
  return {
    bannerDescEn: landing.bannerDescEn,
    bannerDescMn: landing.bannerDescMn,
    musicVideo: landing.musicVideo,
    musicVideoImage: landing.musicVideoImage,
    reels: landing.reels.map(({ url, description, descriptionMn }) => ({
      url,
      description: lang === 'mn' ? (descriptionMn ?? description) : description,
    })),
  };
}

/** A card as a listener gets it: the title in `lang` (Mongolian falls back to English). */
export function cardFor(
  card: ParsedContentImport['cards'][number] & { id: number },
  lang: ContentLanguage,
): ContentCard {
  return {
    id: card.id,
    type: card.type,
    title: lang === 'mn' ? (card.titleMn ?? card.title) : card.title,
    tunesUrl: card.tunesUrl,
    image: card.image,
    trending: card.trending,
  };
}

/** The landing data in `lang`, or null before any content was imported. */
export async function readLandingData(
  deps: Pick<Deps, 'db'>,
  lang: ContentLanguage = 'en',
): Promise<LandingData | null> {
  const landing = await readStoredLanding(deps);
  return landing && landingFor(landing, lang);
}

export async function listContentCards(
  deps: Pick<Deps, 'db'>,
  lang: ContentLanguage = 'en',
): Promise<ContentCard[]> {
  const rows = await deps.db
    .selectFrom('content_cards')
    .select(['id', 'type', 'title', 'title_mn', 'url', 'image', 'trending'])
    .orderBy('position')
    .orderBy('id')
    .execute();
  return rows.map((row) =>
    cardFor(
      {
        id: row.id,
        type: row.type as ContentType,
        title: row.title,
        ...(row.title_mn ? { titleMn: row.title_mn } : {}),
        tunesUrl: row.url,
        image: row.image,
        trending: row.trending,
      },
      lang,
    ),
  );
}

/** Everything stored, in the import's shape (cards in their order), or null before any import. */
export async function readStoredContent(deps: Pick<Deps, 'db'>): Promise<ParsedContentImport | null> {
  const landing = await readStoredLanding(deps);
  if (!landing) return null;
  const rows = await deps.db
    .selectFrom('content_cards')
    .select(['type', 'title', 'title_mn', 'url', 'image', 'trending'])
    .orderBy('position')
    .orderBy('id')
    .execute();
  const cards = rows.map((row) => ({
    type: row.type as ContentType,
    title: row.title,
    ...(row.title_mn ? { titleMn: row.title_mn } : {}),
    tunesUrl: row.url,
    image: row.image,
    trending: row.trending,
  }));
  return { landing, cards };
}

export interface ImportSummary {
  revision: number;
  cards: Record<ContentType, number>;
}

/**
 * Replaces all landing data and cards with `input` in one transaction and bumps the revision,
 * so every API process serves the new content once its cache next checks (≤ its TTL).
 * Throws the zod error for invalid input before touching anything.
 */
export async function importContent(
  deps: Pick<Deps, 'db' | 'clock'>,
  input: unknown,
): Promise<ImportSummary> {
  const { db } = deps;
  const content = contentImportSchema.parse(input);
  // Demo seeds already run inside a transaction; everyone else gets one here.
  const revision = db.isTransaction
    ? await replaceContent(db, deps.clock.now(), content)
    : await db.transaction().execute((trx) => replaceContent(trx, deps.clock.now(), content));
  const counts = { ARTIST: 0, SONG: 0, PLAYLIST: 0 } satisfies Record<ContentType, number>;
  for (const card of content.cards) counts[card.type] += 1;
  return { revision, cards: counts };
}

/**
 * Replaces all landing data and cards with `content` inside the caller's transaction and bumps
 * the revision; answers the new revision. The console's publish uses it too.
 */
export async function replaceContent(
  trx: Kysely<Database>,
  now: Date,
  content: ParsedContentImport,
): Promise<number> {
  const { landing, cards } = content;
  {
    const landingRow = {
      banner_title_en: landing.bannerDescEn.title,
      banner_description_en: landing.bannerDescEn.description,
      banner_title_mn: landing.bannerDescMn.title,
      banner_description_mn: landing.bannerDescMn.description,
      music_video_url: landing.musicVideo,
      music_video_image: landing.musicVideoImage,
      reels: JSON.stringify(landing.reels),
    };
    await trx
      .insertInto('content_landing')
      .values({ id: 1, ...landingRow })
      .onConflict((oc) => oc.column('id').doUpdateSet(landingRow))
      .execute();
    await trx.deleteFrom('content_cards').execute();
    if (cards.length > 0) {
      await trx
        .insertInto('content_cards')
        .values(
          cards.map((card, position) => ({
            type: card.type,
            title: card.title,
            title_mn: card.titleMn ?? null,
            url: card.tunesUrl,
            image: card.image,
            trending: card.trending,
            position,
          })),
        )
        .execute();
    }
    const row = await trx
      .updateTable('content_state')
      .set({ revision: sql`revision + 1`, updated_at: now, published_at: now })
      .where('id', '=', 1)
      .returning('revision')
      .executeTakeFirstOrThrow();
    return Number(row.revision);
  }
}

export type { ContentImport };
