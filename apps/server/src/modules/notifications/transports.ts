import nodemailer from 'nodemailer';
import type { Config } from '../../config.js';
import { MESSAGEPRO_SEND_URL, messageProTransport } from './sms-messagepro.js';

export interface OutgoingMessage {
  /**
   * The outbox row's id: the same on every try of one message, so a provider that de-duplicates
   * by it delivers a message once even when our first try timed out after it had accepted it.
   */
  id: string;
  to: string;
  subject?: string;
  text: string;
}

/** Delivers one kind of message, or says there is no provider configured. */
export interface Transport {
  readonly configured: boolean;
  send(message: OutgoingMessage): Promise<void>;
}

/** `<outbox id@sender's domain>`: a mail's Message-ID, the same on every try of one message. */
export function messageIdOf(id: string, mailFrom: string): string {
  const domain = /@([^\s>]+)>?\s*$/.exec(mailFrom)?.[1] ?? 'localhost';
  return `<${id}@${domain}>`;
}

/**
 * E-mail over SMTP (`SMTP_URL`), e.g. smtps://user:pass@smtp.example.com. The Message-ID comes
 * from the outbox row, so a mail sent again after a try that failed late is recognisably the same
 * mail (mail systems and clients drop or thread a repeated Message-ID).
 */
export function smtpTransport(config: Config): Transport {
  if (!config.SMTP_URL) return { configured: false, send: async () => {} };
  const mailer = nodemailer.createTransport(config.SMTP_URL);
  return {
    configured: true,
    send: async ({ id, to, subject, text }) => {
      await mailer.sendMail({
        from: config.MAIL_FROM,
        to,
        subject,
        text,
        messageId: messageIdOf(id, config.MAIL_FROM),
      });
    },
  };
}

/** The SMS provider `SMS_PROVIDER` names: the generic JSON one (default) or MessagePro. */
export function smsTransport(config: Config, fetchImpl: typeof fetch = fetch): Transport {
  if (config.SMS_PROVIDER === 'messagepro') {
    return messageProTransport(
      {
        url: config.SMS_PROVIDER_URL ?? MESSAGEPRO_SEND_URL,
        // config.ts refuses SMS_PROVIDER=messagepro without them.
        apiKey: config.MESSAGEPRO_API_KEY ?? '',
        from: config.MESSAGEPRO_FROM ?? '',
        timeoutMs: config.MESSAGE_SEND_TIMEOUT_MS,
      },
      fetchImpl,
    );
  }
  return smsHttpTransport(config, fetchImpl);
}

/**
 * SMS through a generic HTTP provider (`SMS_PROVIDER=json`, `SMS_PROVIDER_URL`, bearer
 * `SMS_PROVIDER_TOKEN`): one JSON POST `{ id, to, text }` per message with the id also as
 * `Idempotency-Key`, any 2xx counts as accepted. A send slower than `MESSAGE_SEND_TIMEOUT_MS`
 * fails and is tried again later with the same id, for the provider to drop as a repeat.
 */
export function smsHttpTransport(config: Config, fetchImpl: typeof fetch = fetch): Transport {
  const url = config.SMS_PROVIDER_URL;
  if (!url) return { configured: false, send: async () => {} };
  return {
    configured: true,
    send: async ({ id, to, text }) => {
      const response = await fetchImpl(url, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          'idempotency-key': id,
          ...(config.SMS_PROVIDER_TOKEN ? { authorization: `Bearer ${config.SMS_PROVIDER_TOKEN}` } : {}),
        },
        body: JSON.stringify({ id, to, text }),
        signal: AbortSignal.timeout(config.MESSAGE_SEND_TIMEOUT_MS),
      });
      if (!response.ok) throw new Error(`SMS provider answered ${response.status}`);
    },
  };
}
