import type { Deps } from '../../deps.js';
import type { ErrorLog } from '../../lib/logging.js';
import { deliverMessage, type NewMessage, recordMessage } from './outbox.js';

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
