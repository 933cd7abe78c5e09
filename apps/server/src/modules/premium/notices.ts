import { sql } from 'kysely';
import { prepared } from '../../db/prepared.js';
import type { Deps } from '../../deps.js';
import type { Lang } from '../../lib/message-language.js';
import { deliverMessage, type RecordedMessage } from '../notifications/outbox.js';
import type { Channel } from '../notifications/schema.js';
import { premiumMessages } from './messages.js';
import './tables.js';
import type { ErrorLog } from '../../lib/logging.js';

export interface Notice {
  /** Once per key, however often the job that sends it runs: `reminder:<subscription>:<end>`. */
  key: string;
  userId: string;
  text: (lang: Lang) => string;
  link?: string;
  /** The period a renewal reminder is of: recorded on its subscription with the notice. */
  remindsOf?: RemindedPeriod;
}

/** A subscription's period, by when it ends. */
export interface RemindedPeriod {
  subscriptionId: string;
  endDate: Date;
}

interface NoticeArgs extends Record<string, unknown> {
  key: string;
  userId: string;
  now: Date;
  subjectEn: string;
  subjectMn: string;
  textEn: string;
  textMn: string;
  link: string | null;
  /** A reminder's subscription and period end (`reminded_for`); null for other notices. */
  remindedSubscription: string | null;
  remindedEnd: Date | null;
}

const inLanguage = (en: string, mn: string) =>
  sql<string>`case when u.language = 'mn' then ${mn} else ${en} end`;

/**
 * The notice's key and its outbox row, in one statement: the row is written only when the key is
 * new, to the account's e-mail address or else its phone, in its language. A renewal reminder's
 * statement also records on its subscription that the period's reminder went out (whether or not
 * this call wrote the message); other notices name no subscription, and that update matches
 * nothing. Built once (`prepared`): a renewal run writes one or two per subscription.
 */
const insertNotice = prepared((db: Deps['db'], args: NoticeArgs) =>
  db
    .with('reminded', (cte) =>
      cte
        .updateTable('subscriptions')
        .set({ reminded_for: args.remindedEnd })
        .where('id', '=', args.remindedSubscription)
        .returning('id'),
    )
    .with('fresh', (cte) =>
      cte
        .insertInto('billing_notices')
        .values({ key: args.key, created_at: args.now })
        .onConflict((oc) => oc.column('key').doNothing())
        .returning('key'),
    )
    .insertInto('outbox_messages')
    .columns(['channel', 'recipient', 'subject', 'text', 'link', 'created_at', 'user_id'])
    .expression((eb) =>
      eb
        .selectFrom('users as u')
        .select((u) => [
          sql<Channel>`case when u.primary_email is not null then 'email' else 'sms' end`.as('channel'),
          u.fn.coalesce('u.primary_email', 'u.phone_number').as('recipient'),
          sql<string | null>`case when u.primary_email is not null then ${inLanguage(
            args.subjectEn,
            args.subjectMn,
          )} end`.as('subject'),
          inLanguage(args.textEn, args.textMn).as('text'),
          u.val(args.link).as('link'),
          u.val(args.now).as('created_at'),
          // Named by account, so a number or address that changes hands keeps it (security.md).
          'u.id as user_id',
        ])
        .where('u.id', '=', args.userId)
        .where('u.deleted_at', 'is', null)
        .where((w) => w.or([w('u.primary_email', 'is not', null), w('u.phone_number', 'is not', null)]))
        .where((w) => w.exists(w.selectFrom('fresh').select('fresh.key'))),
    )
    .returning(['id', 'channel', 'recipient', 'subject', 'text', 'link']),
);

/**
 * Tells a subscriber something about their Premium (a renewal, a charge, a refund), once per key: the key and the outbox row
 * are written by one statement (so a job that runs twice, or crashes and runs again, sends one
 * message, and a renewal run of 100,000 pays one round trip per notice). By e-mail when the
 * account has an address, otherwise by SMS, in the account's language. Answers whether this call
 * sent it.
 */
export async function notifyOnce(
  deps: Pick<Deps, 'db' | 'clock' | 'config'>,
  notice: Notice,
  log?: ErrorLog,
  /** Runs in the same transaction once the message is recorded (the console's audit entry). */
  alongside?: (trx: Deps['db'], sentTo: string) => Promise<void>,
): Promise<boolean> {
  const now = deps.clock.now();
  const args: NoticeArgs = {
    key: notice.key,
    userId: notice.userId,
    now,
    subjectEn: premiumMessages.subject('en'),
    subjectMn: premiumMessages.subject('mn'),
    textEn: notice.text('en'),
    textMn: notice.text('mn'),
    link: notice.link ?? null,
    remindedSubscription: notice.remindsOf?.subscriptionId ?? null,
    remindedEnd: notice.remindsOf?.endDate ?? null,
  };
  const write = async (db: Deps['db']) => {
    const [written] = await insertNotice(db, args);
    if (written && alongside) await alongside(db, written.recipient);
    return written;
  };
  // With an `alongside` step the two share a transaction; alone, the one statement is atomic.
  const row = alongside ? await deps.db.transaction().execute(write) : await write(deps.db);
  if (!row) return false;
  const recorded: RecordedMessage = {
    id: row.id,
    attempts: 0,
    channel: row.channel,
    to: row.recipient,
    text: row.text,
    ...(row.subject ? { subject: row.subject } : {}),
    ...(row.link ? { link: row.link } : {}),
  };
  await deliverMessage(deps, recorded, log);
  return true;
}
