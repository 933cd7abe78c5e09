import {
  type ContentCard,
  type ContentImport,
  type ContentType,
  contentImportSchema,
  type LandingData,
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

/** The landing data, or null before any content was imported. */
export async function readLandingData(deps: Pick<Deps, 'db'>): Promise<LandingData | null> {
  const row = await deps.db.selectFrom('content_landing').selectAll().where('id', '=', 1).executeTakeFirst();
  if (!row) return null;
  const reels = typeof row.reels === 'string' ? (JSON.parse(row.reels) as typeof row.reels) : row.reels;
  return {
    bannerDescEn: { title: row.banner_title_en, description: row.banner_description_en },
    bannerDescMn: { title: row.banner_title_mn, description: row.banner_description_mn },
    musicVideo: row.music_video_url,
    musicVideoImage: row.music_video_image,
    reels: reels.map(({ url, description }) => ({ url, description })),
  };
}

export async function listContentCards(deps: Pick<Deps, 'db'>): Promise<ContentCard[]> {
  const rows = await deps.db
    .selectFrom('content_cards')
    .select(['id', 'type', 'title', 'url', 'image', 'trending'])
    .orderBy('position')
    .orderBy('id')
    .execute();
  return rows.map((row) => ({
    id: row.id,
    type: row.type as ContentType,
    title: row.title,
    tunesUrl: row.url,
    image: row.image,
    trending: row.trending,
  }));
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
  const now = deps.clock.now();
  const content = contentImportSchema.parse(input);
  const { landing, cards } = content;
  const replace = async (trx: Kysely<Database>) => {
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
      .set({ revision: sql`revision + 1`, updated_at: now })
      .where('id', '=', 1)
      .returning('revision')
      .executeTakeFirstOrThrow();
    return Number(row.revision);
  };
  // Demo seeds already run inside a transaction; everyone else gets one here.
  const revision = db.isTransaction ? await replace(db) : await db.transaction().execute(replace);
  const counts = { ARTIST: 0, SONG: 0, PLAYLIST: 0 } satisfies Record<ContentType, number>;
  for (const card of cards) counts[card.type] += 1;
  return { revision, cards: counts };
}

export type { ContentImport };
