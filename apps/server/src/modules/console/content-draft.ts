import type { ContentLanguage, ParsedContentImport } from '@tunes/shared/content';
import type { Deps } from '../../deps.js';
import { badRequest } from '../../lib/errors.js';
import { announceContentPublished } from '../content/content-events.js';
import { cardFor, landingFor, readContentRevision, replaceContent } from '../content/content-store.js';
import { audit } from './audit.js';
import type { Actor } from './content-draft-edits.js';
import {
  byTypeThenPosition,
  type Db,
  type Draft,
  draftToImport,
  emptyLanding,
  loadDraft,
  parseDocument,
  publishedAsDraft,
  sameContent,
} from './content-draft-store.js';
import './tables.js';

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
