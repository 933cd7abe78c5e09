import type { Deps } from '../../deps.js';
import { notFound } from '../../lib/errors.js';
import '../content/tables.js';

/**
 * Feedback sent through the contact page (product.md §3), as the console reads it (docs/console-
 * api.md §4): newest first, a page at a time (keyset on the id), and one message whole. Reading
 * changes nothing, so nothing here is audited.
 */

export interface FeedbackSummary {
  id: string;
  name: string;
  email: string;
  /** The message's start, for the list (at most PREVIEW_LENGTH characters). */
  preview: string;
  receivedAt: string;
}
export interface FeedbackMessage extends Omit<FeedbackSummary, 'preview'> {
  feedback: string;
}

export const PREVIEW_LENGTH = 140;

export async function listFeedbackPage(
  deps: Pick<Deps, 'db'>,
  query: { limit: number; before?: string | undefined },
): Promise<{ entries: FeedbackSummary[]; nextBefore: string | null }> {
  let select = deps.db
    .selectFrom('feedback')
    .select(['id', 'name', 'email', 'feedback', 'created_at'])
    .orderBy('id', 'desc')
    .limit(query.limit + 1);
  if (query.before) select = select.where('id', '<', Number(query.before));
  const rows = await select.execute();
  const page = rows.slice(0, query.limit);
  return {
    entries: page.map((row) => ({
      id: String(row.id),
      name: row.name,
      email: row.email,
      preview:
        row.feedback.length > PREVIEW_LENGTH ? `${row.feedback.slice(0, PREVIEW_LENGTH - 1)}…` : row.feedback,
      receivedAt: new Date(row.created_at).toISOString(),
    })),
    nextBefore: rows.length > query.limit ? String(page.at(-1)?.id) : null,
  };
}

export async function readFeedback(deps: Pick<Deps, 'db'>, id: string): Promise<FeedbackMessage> {
  const row = await deps.db
    .selectFrom('feedback')
    .select(['id', 'name', 'email', 'feedback', 'created_at'])
    .where('id', '=', Number(id))
    .executeTakeFirst();
  if (!row) throw notFound('No such feedback.');
  return {
    id: String(row.id),
    name: row.name,
    email: row.email,
    feedback: row.feedback,
    receivedAt: new Date(row.created_at).toISOString(),
  };
}
