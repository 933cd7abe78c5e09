import { randomUUID } from 'node:crypto';
import type { DraftCard, DraftLanding } from '@tunes/shared/console';
import {
  CONTENT_TYPES,
  type ContentLanguage,
  type ContentType,
  contentImportSchema,
  type ParsedContentImport,
} from '@tunes/shared/content';
import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.js';
import type { Deps } from '../../deps.js';
import { badRequest, conflict, notFound } from '../../lib/errors.js';
import { announceContentPublished } from '../content/content-events.js';
import {
  cardFor,
  landingFor,
  readContentRevision,
  readStoredLanding,
  replaceContent,
} from '../content/content-store.js';
import { audit } from './audit.js';
import './tables.js';

/** The console edits this draft; publish copies it into the listeners' content (content-store.ts). */
export interface Draft {
  landing: DraftLanding;
  cards: DraftCard[];
}

export const MAX_CARDS_PER_TYPE = 200;
type Db = Kysely<Database>;

const byTypeThenPosition = (a: DraftCard, b: DraftCard) =>
  CONTENT_TYPES.indexOf(a.type) - CONTENT_TYPES.indexOf(b.type) || a.position - b.position;

/** The published content in the draft's shape (the draft starts as a copy of it). */
async function publishedAsDraft(db: Db): Promise<Draft | null> {
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

const parseDocument = (value: unknown): Draft =>
  (typeof value === 'string' ? JSON.parse(value) : value) as Draft;

/**
 * The stored draft, held for update when `lock` (inside a transaction). The first read stores a
 * copy of what is published, so card ids stay the same from one call to the next.
 */
async function loadDraft(db: Db, lock: boolean, now: Date = new Date()): Promise<Draft> {
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

function emptyLanding(): DraftLanding {
  const blank = { en: '', mn: '' };
  return {
    banner: { title: blank, description: blank },
    musicVideo: '',
    musicVideoImage: '',
    reels: [0, 1, 2].map(() => ({ url: '', description: blank })),
  };
}

async function saveDraft(db: Db, draft: Draft, now: Date): Promise<void> {
  const document = JSON.stringify(draft);
  await db
    .insertInto('content_drafts')
    .values({ id: 1, document, updated_at: now })
    .onConflict((oc) => oc.column('id').doUpdateSet({ document, updated_at: now }))
    .execute();
}

export async function contentOverview(deps: Pick<Deps, 'db'>) {
  const draft = await loadDraft(deps.db, false);
  const state = await deps.db
    .selectFrom('content_state')
    .select(['revision', 'published_at'])
    .where('id', '=', 1)
    .executeTakeFirst();
  const published = await publishedAsDraft(deps.db);
  return {
    landing: draft.landing,
    cards: [...draft.cards].sort(byTypeThenPosition),
    changed: !published || !sameContent(draft, published),
    publishedRevision: Number(state?.revision ?? 0),
    publishedAt: state?.published_at?.toISOString() ?? null,
  };
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

function sameContent(a: Draft, b: Draft): boolean {
  const strip = (draft: Draft) =>
    JSON.stringify(
      canonical({
        landing: draft.landing,
        cards: [...draft.cards].sort(byTypeThenPosition).map(({ id: _id, ...card }) => card),
      }),
    );
  return strip(a) === strip(b);
}

interface Actor {
  operatorId: string;
}

/**
 * Changes the draft in one transaction with the draft row held, and writes the audit entry
 * of the change in it; `change` answers what the caller returns and the audit's before/after.
 */
async function editDraft<T>(
  deps: Pick<Deps, 'db' | 'clock'>,
  actor: Actor,
  action: string,
  change: (draft: Draft) => { result: T; targetId?: string; before?: unknown; after?: unknown },
): Promise<T> {
  const now = deps.clock.now();
  return deps.db.transaction().execute(async (trx) => {
    const draft = await loadDraft(trx, true, now);
    const outcome = change(draft);
    await saveDraft(trx, draft, now);
    await audit(trx, now, {
      operatorId: actor.operatorId,
      action,
      targetType: 'content',
      targetId: outcome.targetId ?? null,
      before: outcome.before,
      after: outcome.after,
    });
    return outcome.result;
  });
}

export const updateLanding = (deps: Pick<Deps, 'db' | 'clock'>, actor: Actor, landing: DraftLanding) =>
  editDraft(deps, actor, 'content.landing.update', (draft) => {
    const before = draft.landing;
    draft.landing = landing;
    return { result: { landing }, targetId: 'landing', before, after: landing };
  });

type CardFields = Omit<DraftCard, 'id' | 'position'>;

export const addCard = (deps: Pick<Deps, 'db' | 'clock'>, actor: Actor, fields: CardFields) =>
  editDraft(deps, actor, 'content.card.create', (draft) => {
    const sameType = draft.cards.filter((card) => card.type === fields.type);
    if (sameType.length >= MAX_CARDS_PER_TYPE) {
      throw conflict(`At most ${MAX_CARDS_PER_TYPE} cards of one type.`, 'too_many_cards');
    }
    const position = Math.max(-1, ...sameType.map((card) => card.position)) + 1;
    const card: DraftCard = { ...fields, id: randomUUID(), position };
    draft.cards.push(card);
    return { result: { card }, targetId: card.id, after: card };
  });

function renumber(draft: Draft, type: ContentType): void {
  draft.cards
    .filter((card) => card.type === type)
    .sort((a, b) => a.position - b.position)
    .forEach((card, index) => {
      card.position = index;
    });
}

export const patchCard = (
  deps: Pick<Deps, 'db' | 'clock'>,
  actor: Actor,
  id: string,
  fields: Partial<CardFields>,
) =>
  editDraft(deps, actor, 'content.card.update', (draft) => {
    const card = draft.cards.find((candidate) => candidate.id === id);
    if (!card) throw notFound('No such card in the draft.');
    const before = { ...card };
    const oldType = card.type;
    Object.assign(
      card,
      Object.fromEntries(Object.entries(fields).filter(([, value]) => value !== undefined)),
    );
    if (card.type !== oldType) {
      card.position =
        Math.max(
          -1,
          ...draft.cards.filter((c) => c.type === card.type && c !== card).map((c) => c.position),
        ) + 1;
      renumber(draft, oldType);
    }
    return { result: { card }, targetId: id, before, after: { ...card } };
  });

export const deleteCard = (deps: Pick<Deps, 'db' | 'clock'>, actor: Actor, id: string) =>
  editDraft(deps, actor, 'content.card.delete', (draft) => {
    const card = draft.cards.find((candidate) => candidate.id === id);
    if (!card) throw notFound('No such card in the draft.');
    draft.cards = draft.cards.filter((candidate) => candidate !== card);
    renumber(draft, card.type);
    return { result: undefined, targetId: id, before: card };
  });

export const orderCards = (
  deps: Pick<Deps, 'db' | 'clock'>,
  actor: Actor,
  type: ContentType,
  ids: string[],
) =>
  editDraft(deps, actor, 'content.cards.order', (draft) => {
    const ofType = draft.cards.filter((card) => card.type === type);
    const known = new Set(ofType.map((card) => card.id));
    if (ids.length !== known.size || new Set(ids).size !== ids.length || !ids.every((id) => known.has(id))) {
      throw badRequest(`ids must list every ${type} card of the draft exactly once.`, 'ids');
    }
    const before = [...ofType].sort((a, b) => a.position - b.position).map((card) => card.id);
    for (const card of ofType) card.position = ids.indexOf(card.id);
    const cards = ofType.sort((a, b) => a.position - b.position);
    return { result: { cards }, targetId: type, before, after: ids };
  });

/** The listener's answers built from the draft: exactly what they get once it is published. */
export async function previewDraft(deps: Pick<Deps, 'db'>, lang: ContentLanguage) {
  const content = checkedImport(await loadDraft(deps.db, false));
  return {
    landingPage: { result: landingFor(content.landing, lang) },
    cards: { result: content.cards.map((card, index) => cardFor({ ...card, id: index + 1 }, lang)) },
  };
}

function checkedImport(draft: Draft): ParsedContentImport {
  try {
    return draftToImport(draft);
  } catch {
    throw badRequest(
      'The draft is incomplete: fill in the banner, the music video and the three reels.',
      'landing',
    );
  }
}

/** Publishes the draft: listeners' content replaced in one transaction, every process told at once. */
export async function publishDraft(deps: Deps, actor: Actor) {
  const now = deps.clock.now();
  const revision = await deps.db.transaction().execute(async (trx) => {
    const draft = await loadDraft(trx, false);
    const content = checkedImport(draft);
    const before = await readContentRevision({ db: trx });
    const revision = await replaceContent(trx, now, content);
    await audit(trx, now, {
      operatorId: actor.operatorId,
      action: 'content.publish',
      targetType: 'content',
      targetId: String(revision),
      before: { revision: before },
      after: { revision, cards: content.cards.length },
    });
    return revision;
  });
  await announceContentPublished(deps);
  return { revision, publishedAt: now.toISOString() };
}

/**
 * Before content is replaced from outside the console (`catalog:import`): a draft with no changes
 * of its own (the same as what is published, or still blank) is dropped, so the console's next
 * read copies the new content; a draft an operator has been editing is kept.
 */
export async function dropUntouchedDraft(db: Db): Promise<void> {
  const row = await db.selectFrom('content_drafts').select('document').where('id', '=', 1).executeTakeFirst();
  if (!row) return;
  const draft = parseDocument(row.document);
  const published = (await publishedAsDraft(db)) ?? { landing: emptyLanding(), cards: [] };
  if (sameContent(draft, published)) await db.deleteFrom('content_drafts').where('id', '=', 1).execute();
}

/** Drops the draft's changes: it becomes a copy of what is published again. */
export async function discardDraft(deps: Pick<Deps, 'db' | 'clock'>, actor: Actor) {
  const now = deps.clock.now();
  await deps.db.transaction().execute(async (trx) => {
    await trx.deleteFrom('content_drafts').execute();
    await audit(trx, now, { operatorId: actor.operatorId, action: 'content.discard', targetType: 'content' });
  });
  return contentOverview(deps);
}
