import type { ColumnType, Generated } from 'kysely';

type Time = ColumnType<Date, Date | string, Date | string>;
type NullableTime = ColumnType<Date | null, Date | string | null | undefined, Date | string | null>;

declare module '../../db/schema.js' {
  interface PackagesTable {
    /** A short label on the plan's card (Most popular), in both languages; null without one. */
    badge_en: ColumnType<string | null, string | null | undefined, string | null>;
    badge_mn: ColumnType<string | null, string | null | undefined, string | null>;
  }
  interface Database {
    /** Every change of a plan's price; new sales pay `cost` from `changed_at`. */
    plan_price_changes: {
      id: Generated<number>;
      package_id: number;
      previous_cost: number;
      cost: number;
      changed_at: Time;
      /** `changed_at` + 30 days: current subscribers' first renewal on or after it pays `cost`. */
      takes_effect_at: Time;
      /** The console operator who made it; null for a catalog import. */
      operator_id: string | null;
    };
    /** A rise in price as it reaches one current subscription (price-schedule.ts). */
    price_notices: {
      subscription_id: string;
      price_change_id: number;
      package_id: number;
      previous_cost: number;
      cost: number;
      takes_effect_at: Time;
      told_at: NullableTime;
      reminded_at: NullableTime;
    };
  }
}
