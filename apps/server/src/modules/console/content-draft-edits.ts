import { randomUUID } from 'node:crypto';
import type { DraftCard, DraftLanding } from '@tunes/shared/console';
import type { ContentType } from '@tunes/shared/content';
import { API_ERROR_CODES } from '@tunes/shared/error-codes';
import type { Deps } from '../../deps.js';
import { badRequest, conflict, notFound } from '../../lib/errors.js';
import { audit } from './audit.js';
import { type Draft, loadDraft, saveDraft } from './content-draft-store.js';
import './tables.js';

export const MAX_CARDS_PER_TYPE = 200;

export interface Actor {
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
      throw conflict(`At most ${MAX_CARDS_PER_TYPE} cards of one type.`, API_ERROR_CODES.tooManyCards);
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
