import type { OfferAudience, OfferKind } from '@tunes/shared/offers';
import type { ColumnType, Generated } from 'kysely';

type Timestamp = ColumnType<Date, Date | string, Date | string>;
type NullableTimestamp = ColumnType<Date | null, Date | string | null | undefined, Date | string | null>;

/** An offer's terms; `redeemed` counts the redemptions held (reserved or active), never above the limit. */
export interface OffersTable {
  id: Generated<string>;
  /** In capitals (codes are case-insensitive). */
  code: string;
  kind: OfferKind;
  value: number;
  periods: number;
  audience: OfferAudience;
  /** The plans it applies to; null: every plan. */
  package_ids: ColumnType<number[] | null, number[] | null | undefined, number[] | null>;
  max_redemptions: number;
  redeemed: ColumnType<number, number | undefined, number>;
  ends_at: Timestamp;
  /** Ended early in the console: no new redemptions. */
  ended_at: NullableTimestamp;
  created_by: string | null;
  created_at: Timestamp;
}

export type RedemptionStatus = 'reserved' | 'active' | 'released';

/**
 * A listener's redemption: reserved by the purchase invoice (`invoice_id`), active once that is
 * paid (then the subscription's offer), released if it fails or expires unpaid.
 */
export interface OfferRedemptionsTable {
  id: Generated<string>;
  offer_id: string;
  user_id: string;
  invoice_id: string;
  status: RedemptionStatus;
  subscription_id: string | null;
  /** Periods paid at the offer's price; the purchase is the first. */
  periods_used: ColumnType<number, number | undefined, number>;
  /** The end of the last period paid at the offer's price: a plan change within it is discounted too. */
  discounted_until: NullableTimestamp;
  created_at: Timestamp;
  settled_at: NullableTimestamp;
}

declare module '../../db/schema.js' {
  interface Database {
    offers: OffersTable;
    offer_redemptions: OfferRedemptionsTable;
  }
}
