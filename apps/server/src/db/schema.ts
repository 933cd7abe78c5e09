import type { ColumnType, Generated, Insertable, Selectable } from 'kysely';

/**
 * The database as Kysely sees it. Core tables are declared here; a module that owns more tables
 * adds them to this interface from its own folder with `declare module '…/db/schema.js'`.
 */
export interface Database {
  users: UsersTable;
  merchants: MerchantsTable;
  packages: PackagesTable;
  subscriptions: SubscriptionsTable;
  subscription_members: SubscriptionMembersTable;
  demo_seeds: DemoSeedsTable;
}

type CreatedAt = ColumnType<Date, Date | string | undefined, never>;
type UpdatedAt = ColumnType<Date, Date | string | undefined, Date | string>;
type Timestamp = ColumnType<Date, Date | string, Date | string>;

export interface UsersTable {
  id: Generated<string>;
  /** Login name: the e-mail for e-mail accounts, the full msisdn for mobile accounts. */
  username: string;
  first_name: Generated<string>;
  last_name: Generated<string>;
  display_name: Generated<string>;
  primary_email: string | null;
  /** A new address waiting for the code sent to it; it becomes primary_email once confirmed. */
  pending_email: ColumnType<string | null, string | null | undefined, string | null>;
  /** Full number: country code followed by the number, e.g. "97688112233". */
  phone_number: string | null;
  /** A new number waiting for the code sent to it; it becomes phone_number once confirmed. */
  pending_phone: ColumnType<string | null, string | null | undefined, string | null>;
  country_code: number | null;
  iso2_country_code: string | null;
  password_hash: string | null;
  is_public: Generated<boolean>;
  language: Generated<string>;
  birth_year: number | null;
  gender: string | null;
  opted_in: Generated<boolean>;
  audio_quality: Generated<string>;
  is_verified: Generated<boolean>;
  test_user: Generated<boolean>;
  tags: ColumnType<string[], string[] | string | undefined, string[] | string>;
  usercentrics_controller_id: Generated<string>;
  /** Set when the account was deleted: the row keeps only its id (accounts/account-data.ts). */
  deleted_at: ColumnType<Date | null, Date | null | undefined, Date | null>;
  created_at: CreatedAt;
  updated_at: UpdatedAt;
}

export interface MerchantsTable {
  id: number;
  name: string;
  created_at: CreatedAt;
}

/** A plan that can be bought (product.md §3 "Plan"). */
export interface PackagesTable {
  id: Generated<number>;
  merchant_id: number;
  /** The plan code the site sends to check out; unique across merchants. */
  merchant_code: string;
  /** Offer family: only 'premium', 'premium-duo' and 'premium-family' are sold on /premium. */
  offer: string;
  name_en: string;
  name_mn: string;
  description_en: Generated<string>;
  description_mn: Generated<string>;
  cost: number;
  /** Price before the discount, shown struck through; null when there is no discount. */
  original_cost: number | null;
  currency: string;
  duration_months: Generated<number>;
  allow_share: Generated<boolean>;
  max_shared_users: Generated<number>;
  is_active: Generated<boolean>;
  sort_order: Generated<number>;
  /** A first-time trial's free days (0: none; trials/). */
  trial_days: Generated<number>;
  created_at: CreatedAt;
}

export type SourceType = 'Web' | 'Voucher' | 'Apple IAP' | 'Google Play';

export interface SubscriptionsTable {
  id: Generated<string>;
  owner_id: string;
  package_id: number;
  start_date: Timestamp;
  end_date: Timestamp;
  is_auto_renew: Generated<boolean>;
  source_type: Generated<SourceType>;
  /** The payment invoice that activated this period; unique so a period activates once. */
  invoice_id: string | null;
  cancelled_at: ColumnType<Date | null, Date | string | null | undefined, Date | string | null>;
  /** When the next billing step (charge, retry, lapse) is due; null: nothing to bill (billing module). */
  next_billing_at: NullableTime;
  renewal_attempts: Generated<number>;
  /** Access kept past the end date while a failed renewal charge is tried again. */
  grace_until: NullableTime;
  /** The period end whose reminder went out. */
  reminded_for: NullableTime;
  /** A downgrade waiting for the next renewal. */
  next_package_id: number | null;
  created_at: CreatedAt;
  updated_at: UpdatedAt;
}

type NullableTime = ColumnType<Date | null, Date | string | null | undefined, Date | string | null>;

/** A member who joined a shared (Duo/Family) subscription through an invitation. */
export interface SubscriptionMembersTable {
  subscription_id: string;
  user_id: string;
  joined_at: CreatedAt;
}

export interface DemoSeedsTable {
  name: string;
  applied_at: CreatedAt;
}

export type User = Selectable<UsersTable>;
export type NewUser = Insertable<UsersTable>;
export type Package = Selectable<PackagesTable>;
export type Subscription = Selectable<SubscriptionsTable>;
