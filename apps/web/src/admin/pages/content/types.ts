import type { DraftCard, DraftLanding } from '@tunes/shared/console';

export type { DraftCard, DraftLanding };

/** The shapes of docs/console-api.md §3 the shared schemas do not name. */
export type Text2 = DraftLanding['banner']['title'];
export type CardType = DraftCard['type'];

export interface ContentState {
  landing: DraftLanding;
  cards: DraftCard[];
  changed: boolean;
  publishedRevision: number;
  publishedAt: string | null;
}

export const contentKey = ['admin', 'content'];
export const CARD_TYPES: readonly CardType[] = ['ARTIST', 'SONG', 'PLAYLIST'];
