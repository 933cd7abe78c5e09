import type { ColumnType, Generated } from 'kysely';

/** Operator-made codes that activate a package for some days, once (migration 2026112500). */
export interface VouchersTable {
  code: string;
  package_id: number;
  days: number;
  expires_at: ColumnType<Date | null, Date | string | null | undefined, Date | string | null>;
  created_at: ColumnType<Date, Date | string | undefined, never>;
  redeemed_by: string | null;
  redeemed_at: ColumnType<Date | null, Date | string | null | undefined, Date | string | null>;
  subscription_id: string | null;
  /** The console's batch this code belongs to (migration 2026113000); null for CLI codes. */
  batch_id: ColumnType<string | null, string | null | undefined, string | null>;
  /** Set when an operator revoked the code: it no longer redeems. */
  revoked_at: ColumnType<Date | null, Date | string | null | undefined, Date | string | null>;
}

/** The follow-up call of product.md §7 to the coupon service: recorded, and sent when configured. */
export interface CouponNotificationsTable {
  id: Generated<number>;
  msisdn: string;
  coupon_code: string;
  status: 'recorded' | 'sent' | 'failed';
  created_at: ColumnType<Date, Date | string | undefined, never>;
}

declare module '../../db/schema.js' {
  interface Database {
    vouchers: VouchersTable;
    coupon_notifications: CouponNotificationsTable;
  }
}
