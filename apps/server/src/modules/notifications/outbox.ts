import type { FastifyBaseLogger } from 'fastify';
import type { Config } from '../../config.js';
import type { Deps } from '../../deps.js';
import type { Channel } from './schema.js';
import { smsHttpTransport, smtpTransport, type Transport } from './transports.js';

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
    transports = { email: smtpTransport(config), sms: smsHttpTransport(config) };
    transportsByConfig.set(config, transports);
  }
  return transports;
}

/**
 * Records the message in the outbox, then hands it to the channel's provider without making the
 * caller wait for it. Without a provider the message stays in the outbox only (development).
 */
export async function sendMessage(
  deps: Pick<Deps, 'db' | 'config' | 'clock'>,
  message: NewMessage,
  log?: FastifyBaseLogger,
): Promise<void> {
  const row = await deps.db
    .insertInto('outbox_messages')
    .values({
      channel: message.channel,
      recipient: message.to,
      subject: message.subject ?? null,
      text: message.text,
      code: message.code ?? null,
      link: message.link ?? null,
      created_at: deps.clock.now(),
    })
    .returning('id')
    .executeTakeFirstOrThrow();

  const transport = transportsFor(deps.config)[message.channel];
  if (!transport.configured) return;
  void transport
    .send({ to: message.to, subject: message.subject, text: message.text })
    .then(() =>
      deps.db
        .updateTable('outbox_messages')
        .set({ delivered_at: new Date() })
        .where('id', '=', row.id)
        .execute(),
    )
    .catch(async (error: unknown) => {
      log?.error({ err: error, channel: message.channel, messageId: row.id }, 'message delivery failed');
      await deps.db
        .updateTable('outbox_messages')
        .set({ delivery_error: String((error as Error).message ?? error).slice(0, 500) })
        .where('id', '=', row.id)
        .execute()
        .catch(() => {});
    });
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
