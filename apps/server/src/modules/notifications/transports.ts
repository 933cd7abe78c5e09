import nodemailer from 'nodemailer';
import type { Config } from '../../config.js';
import { MESSAGEPRO_SEND_URL, messageProTransport } from './sms-messagepro.js';

export interface OutgoingMessage {
  to: string;
  subject?: string;
  text: string;
}

/** Delivers one kind of message, or says there is no provider configured. */
export interface Transport {
  readonly configured: boolean;
  send(message: OutgoingMessage): Promise<void>;
}

/** E-mail over SMTP (`SMTP_URL`), e.g. smtps://user:pass@smtp.example.com. */
export function smtpTransport(config: Config): Transport {
  if (!config.SMTP_URL) return { configured: false, send: async () => {} };
  const mailer = nodemailer.createTransport(config.SMTP_URL);
  return {
    configured: true,
    send: async ({ to, subject, text }) => {
      await mailer.sendMail({ from: config.MAIL_FROM, to, subject, text });
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
      },
      fetchImpl,
    );
  }
  return smsHttpTransport(config, fetchImpl);
}

/**
 * SMS through a generic HTTP provider (`SMS_PROVIDER=json`, `SMS_PROVIDER_URL`, bearer
 * `SMS_PROVIDER_TOKEN`): one JSON POST `{ to, text }` per message, any 2xx counts as accepted.
 */
export function smsHttpTransport(config: Config, fetchImpl: typeof fetch = fetch): Transport {
  const url = config.SMS_PROVIDER_URL;
  if (!url) return { configured: false, send: async () => {} };
  return {
    configured: true,
    send: async ({ to, text }) => {
      const response = await fetchImpl(url, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          ...(config.SMS_PROVIDER_TOKEN ? { authorization: `Bearer ${config.SMS_PROVIDER_TOKEN}` } : {}),
        },
        body: JSON.stringify({ to, text }),
        signal: AbortSignal.timeout(10_000),
      });
      if (!response.ok) throw new Error(`SMS provider answered ${response.status}`);
    },
  };
}
