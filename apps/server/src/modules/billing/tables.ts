import type { ColumnType } from 'kysely';

/** The card kept for renewals: the gateway's token and what the shopper may see of the card. */
export interface SavedCardsTable {
  user_id: string;
  provider_token: string;
  brand: string;
  last4: string;
  expires: string | null;
  saved_at: ColumnType<Date, Date | string, Date | string>;
}

/** Keys of billing messages already sent (`reminder:<subscription>:<period end>`, …). */
export interface BillingNoticesTable {
  key: string;
  created_at: ColumnType<Date, Date | string, never>;
}

declare module '../../db/schema.js' {
  interface Database {
    saved_cards: SavedCardsTable;
    billing_notices: BillingNoticesTable;
  }
}
