import { FEEDBACK_SUCCESS_MESSAGE, type FeedbackRequest } from '@tunes/shared/content';
import type { Deps } from '../../deps.js';
import { LIMITS } from '../../lib/limits.js';
import { enforce } from '../../lib/throttle.js';
import './tables.js';

/** Stores one feedback message unless its sender has reached the hourly limits. */
export async function submitFeedback(
  deps: Pick<Deps, 'db' | 'throttle' | 'clock'>,
  input: FeedbackRequest,
  clientAddress: string,
): Promise<{ message: string }> {
  const { db, throttle } = deps;
  const now = deps.clock.now();
  // Per client and per sender address, each hour: room for a follow-up, not for spam.
  await enforce(throttle, `feedback:client:${clientAddress}`, LIMITS.feedbackFromClient);
  await enforce(throttle, `feedback:email:${input.email}`, LIMITS.feedbackPerEmail);

  await db
    .insertInto('feedback')
    .values({ name: input.name, email: input.email, feedback: input.feedback, created_at: now })
    .execute();
  return { message: FEEDBACK_SUCCESS_MESSAGE };
}

export interface FeedbackEntry {
  id: number;
  name: string;
  email: string;
  feedback: string;
  createdAt: string;
}

export interface FeedbackQuery {
  limit?: number;
  email?: string;
  since?: Date;
}

/** Newest first; what operators read with `feedback:list`. */
export async function listFeedback(
  deps: Pick<Deps, 'db'>,
  query: FeedbackQuery = {},
): Promise<FeedbackEntry[]> {
  let select = deps.db
    .selectFrom('feedback')
    .select(['id', 'name', 'email', 'feedback', 'created_at'])
    .orderBy('created_at', 'desc')
    .orderBy('id', 'desc')
    .limit(query.limit ?? 50);
  if (query.email) select = select.where('email', '=', query.email.trim().toLowerCase());
  if (query.since) select = select.where('created_at', '>=', query.since);
  const rows = await select.execute();
  return rows.map((row) => ({
    id: row.id,
    name: row.name,
    email: row.email,
    feedback: row.feedback,
    createdAt: new Date(row.created_at).toISOString(),
  }));
}

/** One readable block per message for the operator's terminal. */
export function formatFeedbackEntry(entry: FeedbackEntry): string {
  return `#${entry.id}  ${entry.createdAt}  ${entry.name} <${entry.email}>\n${entry.feedback
    .split('\n')
    .map((line) => `    ${line}`)
    .join('\n')}`;
}
