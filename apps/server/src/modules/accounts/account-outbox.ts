import type { Deps } from '../../deps.js';
import type { ErrorLog } from '../../lib/logging.js';
import { deliverMessage, type NewMessage, recordMessage } from '../notifications/outbox.js';
import type { Channel } from '../notifications/schema.js';

type SendDeps = Pick<Deps, 'db' | 'config' | 'clock'>;

/**
 * Sends a message to an account (security.md): its outbox row names the account, so the
 * listener's export and the console's list hold it, and the next holder of the number or address
 * does not. `userId` null: an address no account holds (a code before registration).
 */
export async function sendToAccount(
  deps: SendDeps,
  userId: string | null,
  message: NewMessage,
  log?: ErrorLog,
): Promise<void> {
  const recorded = await recordMessage(deps.db, deps.clock.now(), message);
  // The outbox knows addresses, not accounts: the row is named before it is handed on. Should this
  // fail, the row stays unnamed, which no export or console list shows.
  if (userId) {
    await deps.db
      .updateTable('outbox_messages')
      .set({ user_id: userId })
      .where('id', '=', recorded.id)
      .execute();
  }
  void deliverMessage(deps, recorded, log);
}

/** The account that holds this number (sms) or e-mail address now, if any. */
export async function holderOf(db: Deps['db'], channel: Channel, address: string): Promise<string | null> {
  const row = await db
    .selectFrom('users')
    .select('id')
    .where(channel === 'sms' ? 'phone_number' : 'primary_email', '=', address)
    .where('deleted_at', 'is', null)
    .executeTakeFirst();
  return row?.id ?? null;
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
