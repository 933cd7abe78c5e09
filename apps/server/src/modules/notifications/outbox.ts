import type { Config } from '../../config.js';
import type { Deps } from '../../deps.js';
import type { ErrorLog } from '../../lib/logging.js';
import type { Channel } from './schema.js';
import { smsTransport, smtpTransport, type Transport } from './transports.js';

export interface NewMessage {
  channel: Channel;
  to: string;
  subject?: string;
  text: string;
  code?: string;
  link?: string;
}

const transportsByConfig = new WeakMap<Config, Record<Channel, Transport>>();

function transportsFor(config: Config): Record<Channel, Transport> {
  let transports = transportsByConfig.get(config);
  if (!transports) {
    transports = { email: smtpTransport(config), sms: smsTransport(config) };
    transportsByConfig.set(config, transports);
  }
  return transports;
}

/** The rows `recordMessage` writes and `deliverMessage` hands to a provider. */
export interface RecordedMessage extends NewMessage {
  id: string;
  attempts: number;
}

/** Waits after the n-th failed delivery before the job queue tries again; none after the last. */
const RETRY_AFTER_SECONDS = [60, 5 * 60, 30 * 60, 2 * 3600, 12 * 3600];

/** Records the message in the outbox (inside the caller's transaction, if it passes one). */
export async function recordMessage(
  db: Deps['db'],
  now: Date,
  message: NewMessage,
): Promise<RecordedMessage> {
  const row = await db
    .insertInto('outbox_messages')
    .values({
      channel: message.channel,
      recipient: message.to,
      subject: message.subject ?? null,
      text: message.text,
      code: message.code ?? null,
      link: message.link ?? null,
      created_at: now,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  return { ...message, id: row.id, attempts: 0 };
}

/**
 * Hands a recorded message to its channel's provider. Without a provider it stays in the outbox
 * only (development). A failure is written on the row with the time of the next try, which the
 * job queue's `outbox.deliver` makes (jobs/due-work.ts), up to five more times.
 */
export async function deliverMessage(
  deps: Pick<Deps, 'db' | 'config' | 'clock'>,
  message: RecordedMessage,
  log?: ErrorLog,
): Promise<'delivered' | 'failed' | 'no-provider'> {
  const transport = transportsFor(deps.config)[message.channel];
  if (!transport.configured) return 'no-provider';
  const attempts = message.attempts + 1;
  try {
    await transport.send({ id: message.id, to: message.to, subject: message.subject, text: message.text });
    await deps.db
      .updateTable('outbox_messages')
      .set({ delivered_at: new Date(), attempts, next_attempt_at: null, delivery_error: null })
      .where('id', '=', message.id)
      .execute();
    return 'delivered';
  } catch (error) {
    log?.error({ err: error, channel: message.channel, messageId: message.id }, 'message delivery failed');
    const wait = RETRY_AFTER_SECONDS[attempts - 1];
    await deps.db
      .updateTable('outbox_messages')
      .set({
        attempts,
        delivery_error: String((error as Error).message ?? error).slice(0, 500),
        next_attempt_at: wait === undefined ? null : new Date(deps.clock.now().getTime() + wait * 1000),
      })
      .where('id', '=', message.id)
      .execute()
      .catch(() => {});
    return 'failed';
  }
}

/**
 * Records the message in the outbox, then hands it to the channel's provider without making the
 * caller wait for it.
 */
export async function sendMessage(
  deps: Pick<Deps, 'db' | 'config' | 'clock'>,
  message: NewMessage,
  log?: ErrorLog,
): Promise<void> {
  const recorded = await recordMessage(deps.db, deps.clock.now(), message);
  void deliverMessage(deps, recorded, log);
}

/** Messages whose delivery failed and whose next try is due (the job queue's `outbox.deliver`). */
export async function dueRedeliveries(
  deps: Pick<Deps, 'db'>,
  now: Date,
  limit: number,
  after: string | undefined,
) {
  let query = deps.db
    .selectFrom('outbox_messages')
    .select('id')
    .where('next_attempt_at', '<=', now)
    .orderBy('id')
    .limit(limit);
  if (after) query = query.where('id', '>', after);
  return query.execute();
}

/** Tries a failed message again, once per due try (the row's time is moved before sending). */
export async function redeliver(
  deps: Pick<Deps, 'db' | 'config' | 'clock'>,
  id: string,
  log?: ErrorLog,
): Promise<void> {
  const claimed = await deps.db
    .updateTable('outbox_messages')
    .set({ next_attempt_at: null })
    .where('id', '=', id)
    .where('next_attempt_at', '<=', deps.clock.now())
    .where('delivered_at', 'is', null)
    .returning(['id', 'channel', 'recipient', 'subject', 'text', 'attempts'])
    .executeTakeFirst();
  if (!claimed) return;
  await deliverMessage(
    deps,
    {
      id: claimed.id,
      channel: claimed.channel,
      to: claimed.recipient,
      text: claimed.text,
      attempts: claimed.attempts,
      ...(claimed.subject ? { subject: claimed.subject } : {}),
    },
    log,
  );
}

/** Messages sent to `to` (all when omitted), newest first. */
export async function listOutbox(deps: Pick<Deps, 'db'>, to: string | undefined, limit = 100) {
  let query = deps.db
    .selectFrom('outbox_messages')
    .select(['channel', 'recipient', 'text', 'code', 'link', 'created_at'])
    .orderBy('created_at', 'desc')
    .orderBy('id', 'desc')
    .limit(limit);
  if (to) query = query.where('recipient', '=', to);
  const rows = await query.execute();
  return rows.map((row) => ({
    channel: row.channel,
    to: row.recipient,
    text: row.text,
    code: row.code,
    link: row.link,
    createdAt: row.created_at.toISOString(),
  }));
}
