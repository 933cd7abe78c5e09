import type { Deps } from '../../deps.js';
import type { Lang } from '../accounts/messages.js';
import { deliverMessage, type RecordedMessage, recordMessage } from '../notifications/outbox.js';
import { billingMessages } from './messages.js';
import './tables.js';
import type { ErrorLog } from '../../lib/logging.js';

export interface Notice {
  /** Once per key, however often the job that sends it runs: `reminder:<subscription>:<end>`. */
  key: string;
  userId: string;
  text: (lang: Lang) => string;
  link?: string;
}

/**
 * Tells a subscriber something about their billing, once per key: the key and the outbox row
 * are written in one transaction, so a job that runs twice (or crashes and runs again) sends
 * one message. By e-mail when the account has an address, otherwise by SMS. Answers whether
 * this call sent it.
 */
export async function notifyOnce(
  deps: Pick<Deps, 'db' | 'clock' | 'config'>,
  notice: Notice,
  log?: ErrorLog,
): Promise<boolean> {
  const now = deps.clock.now();
  const recorded = await deps.db.transaction().execute(async (trx): Promise<RecordedMessage | null> => {
    const fresh = await trx
      .insertInto('billing_notices')
      .values({ key: notice.key, created_at: now })
      .onConflict((oc) => oc.column('key').doNothing())
      .returning('key')
      .executeTakeFirst();
    if (!fresh) return null;
    const user = await trx
      .selectFrom('users')
      .select(['primary_email', 'phone_number', 'language'])
      .where('id', '=', notice.userId)
      .where('deleted_at', 'is', null)
      .executeTakeFirst();
    if (!user) return null;
    const lang: Lang = user.language === 'mn' ? 'mn' : 'en';
    const text = notice.text(lang);
    const link = notice.link ? { link: notice.link } : {};
    if (user.primary_email) {
      const subject = billingMessages.subject(lang);
      return recordMessage(trx, now, { channel: 'email', to: user.primary_email, subject, text, ...link });
    }
    if (user.phone_number) {
      return recordMessage(trx, now, { channel: 'sms', to: user.phone_number, text, ...link });
    }
    return null;
  });
  if (!recorded) return false;
  await deliverMessage(deps, recorded, log);
  return true;
}
