import type { Deps } from '../../deps.js';
import { type Lang, languageOf } from '../../lib/message-language.js';
import type { Channel } from '../notifications/schema.js';

/** Every message to an account goes through the one in notifications (used across modules). */

/** The account that holds this number (sms) or e-mail address now, if any, with its messages' language. */
export async function holderOf(
  db: Deps['db'],
  channel: Channel,
  address: string,
): Promise<{ id: string; language: Lang } | null> {
  const row = await db
    .selectFrom('users')
    .select(['id', 'language'])
    .where(channel === 'sms' ? 'phone_number' : 'primary_email', '=', address)
    .where('deleted_at', 'is', null)
    .executeTakeFirst();
  return row ? { id: row.id, language: languageOf(row.language) } : null;
}

/**
 * What was sent to the account, newest first: its data export and the console's support view.
 * Matched by account only; rows written before messages named their account are not shown, as
 * who held their address then is not known (migration 2026120120).
 */
export function messagesSentToAccount(db: Deps['db'], userId: string, limit?: number) {
  const query = db
    .selectFrom('outbox_messages')
    .select(['channel', 'recipient', 'subject', 'text', 'code', 'link', 'created_at'])
    .where('user_id', '=', userId)
    .orderBy('created_at', 'desc')
    .orderBy('id', 'desc');
  return (limit === undefined ? query : query.limit(limit)).execute();
}
