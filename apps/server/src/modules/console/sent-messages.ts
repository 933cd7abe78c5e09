import type { Deps } from '../../deps.js';
import { messagesSentToAccount } from '../accounts/account-outbox.js';

const MASK = '••••';
/** The value of every query parameter of a link in a text: tokens and codes, whatever their name. */
const LINK_QUERY_VALUE = /([?&][^\s=&#]+=)[^\s&#]+/g;

/**
 * A text as support may read it: the one-time code it carries and the values of its links'
 * queries (reset tokens) masked, so nobody in the console can sign in or reset a password as
 * the listener with them (security.md). The listener's own export keeps its own texts.
 */
export function maskForSupport(text: string, code: string | null): string {
  return (code ? text.replaceAll(code, MASK) : text).replace(LINK_QUERY_VALUE, `$1${MASK}`);
}

/**
 * The last 50 messages sent to the listener's account as support sees them (docs/console-api.md
 * §4): matched by account, not by address, so a number that changed hands shows only this
 * account's; codes and link tokens masked.
 */
export async function sentMessagesForSupport(db: Deps['db'], userId: string) {
  const rows = await messagesSentToAccount(db, userId, 50);
  return rows.map((row) => ({
    channel: row.channel,
    to: row.recipient,
    text: maskForSupport(row.text, row.code),
    createdAt: row.created_at.toISOString(),
  }));
}
