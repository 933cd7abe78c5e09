import { randomUUID } from 'node:crypto';
import type { DraftCard, DraftLanding } from '@tunes/shared/console';
import {
  CONTENT_TYPES,
  type ContentType,
  contentImportSchema,
  type ParsedContentImport,
} from '@tunes/shared/content';
import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.js';
import { readStoredLanding } from '../content/content-store.js';
import './tables.js';

/** The console edits this draft; publish copies it into the listeners' content (content-store.ts). */
export interface Draft {
  landing: DraftLanding;
  cards: DraftCard[];
}

export type Db = Kysely<Database>;

export const byTypeThenPosition = (a: DraftCard, b: DraftCard) =>
  CONTENT_TYPES.indexOf(a.type) - CONTENT_TYPES.indexOf(b.type) || a.position - b.position;

/** The published content in the draft's shape (the draft starts as a copy of it). */
export async function publishedAsDraft(db: Db): Promise<Draft | null> {
  const landing = await readStoredLanding({ db });
  if (!landing) return null;
  const rows = await db
    .selectFrom('content_cards')
    .select(['type', 'title', 'title_mn', 'url', 'image', 'trending'])
    .orderBy('position')
    .orderBy('id')
    .execute();
  const positions = new Map<string, number>();
  const cards = rows.map((row) => {
    const position = positions.get(row.type) ?? 0;
    positions.set(row.type, position + 1);
    return {
      id: randomUUID(),
      type: row.type as ContentType,
      title: { en: row.title, mn: row.title_mn ?? row.title },
      tunesUrl: row.url,
      image: row.image,
      trending: row.trending,
      position,
    };
  });
  return {
    landing: {
      banner: {
        title: { en: landing.bannerDescEn.title, mn: landing.bannerDescMn.title },
        description: { en: landing.bannerDescEn.description, mn: landing.bannerDescMn.description },
      },
      musicVideo: landing.musicVideo,
      musicVideoImage: landing.musicVideoImage,
      reels: landing.reels.map((reel) => ({
        url: reel.url,
        description: { en: reel.description, mn: reel.descriptionMn ?? reel.description },
      })),
    },
    cards,
  };
}

/** The draft as the listeners' content (what publish stores). */
export function draftToImport(draft: Draft): ParsedContentImport {
  const { landing } = draft;
  return contentImportSchema.parse({
    landing: {
      bannerDescEn: { title: landing.banner.title.en, description: landing.banner.description.en },
      bannerDescMn: { title: landing.banner.title.mn, description: landing.banner.description.mn },
      musicVideo: landing.musicVideo,
      musicVideoImage: landing.musicVideoImage,
      reels: landing.reels.map((reel) => ({
        url: reel.url,
        description: reel.description.en,
        descriptionMn: reel.description.mn,
      })),
    },
    cards: [...draft.cards].sort(byTypeThenPosition).map((card) => ({
      type: card.type,
      title: card.title.en,
      titleMn: card.title.mn,
      tunesUrl: card.tunesUrl,
      image: card.image,
      trending: card.trending,
    })),
  });
}

export const parseDocument = (value: unknown): Draft =>
  (typeof value === 'string' ? JSON.parse(value) : value) as Draft;

/**
 * The stored draft, held for update when `lock` (inside a transaction). The first read stores a
 * copy of what is published, so card ids stay the same from one call to the next.
 */
export async function loadDraft(db: Db, lock: boolean, now: Date = new Date()): Promise<Draft> {
  const read = () => {
    let query = db.selectFrom('content_drafts').select('document').where('id', '=', 1);
    if (lock) query = query.forUpdate();
    return query.executeTakeFirst();
  };
  const row = await read();
  if (row) return parseDocument(row.document);
  const draft = (await publishedAsDraft(db)) ?? { landing: emptyLanding(), cards: [] };
  await db
    .insertInto('content_drafts')
    .values({ id: 1, document: JSON.stringify(draft), updated_at: now })
    .onConflict((oc) => oc.column('id').doNothing())
    .execute();
  const stored = await read();
  return stored ? parseDocument(stored.document) : draft;
}

export function emptyLanding(): DraftLanding {
  const blank = { en: '', mn: '' };
  return {
    banner: { title: blank, description: blank },
    musicVideo: '',
    musicVideoImage: '',
    reels: [0, 1, 2].map(() => ({ url: '', description: blank })),
  };
}

export async function saveDraft(db: Db, draft: Draft, now: Date): Promise<void> {
  const document = JSON.stringify(draft);
  await db
    .insertInto('content_drafts')
    .values({ id: 1, document, updated_at: now })
    .onConflict((oc) => oc.column('id').doUpdateSet({ document, updated_at: now }))
    .execute();
}

/** The value with every object's keys in one order (jsonb does not keep the order they were written in). */
function canonical(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(canonical);
  if (value && typeof value === 'object') {
    return Object.fromEntries(
      Object.keys(value)
        .sort()
        .map((key) => [key, canonical((value as Record<string, unknown>)[key])]),
    );
  }
  return value;
}

export function sameContent(a: Draft, b: Draft): boolean {
  const strip = (draft: Draft) =>
    JSON.stringify(
      canonical({
        landing: draft.landing,
        cards: [...draft.cards].sort(byTypeThenPosition).map(({ id: _id, ...card }) => card),
      }),
    );
  return strip(a) === strip(b);
}
