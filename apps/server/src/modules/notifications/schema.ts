import type { ColumnType, Generated } from 'kysely';

export type Channel = 'sms' | 'email';

/** Every message the product sends, kept whether or not a provider delivered it (product.md §11). */
export interface OutboxMessagesTable {
  id: Generated<string>;
  channel: Channel;
  /** Full msisdn ("97688112233") or lower-case e-mail address. */
  recipient: string;
  subject: string | null;
  text: string;
  /** The one-time code the message carries, if any. */
  code: string | null;
  /** The link the message carries, if any. */
  link: string | null;
  /** The account it was sent to; null for an address no account held (migration 2026120120). */
  user_id: ColumnType<string | null, string | null | undefined, string | null>;
  delivered_at: ColumnType<Date | null, Date | null | undefined, Date | null>;
  delivery_error: string | null;
  /** Delivery tries so far; a failed one is tried again at `next_attempt_at` by the job queue. */
  attempts: Generated<number>;
  next_attempt_at: ColumnType<Date | null, Date | null | undefined, Date | null>;
  created_at: ColumnType<Date, Date, never>;
}

declare module '../../db/schema.js' {
  interface Database {
    outbox_messages: OutboxMessagesTable;
  }
}
