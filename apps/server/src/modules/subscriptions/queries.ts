import type { SubscriptionView } from '@tunes/shared/profile';
import type { Kysely } from 'kysely';
import { prepared } from '../../db/prepared.js';
import type { Database, SourceType } from '../../db/schema.js';
import { unauthorized } from '../../lib/errors.js';

/**
 * Sources whose renewals the store charges: their periods stay active past the end date while
 * auto-renew is on (product.md §4). Card periods bought here have no stored card, so they renew only
 * when a renewal payment arrives, and access ends at the end date until it does.
 */
const STORE_RENEWED_SOURCES: SourceType[] = ['Apple IAP', 'Google Play'];

/** The subscription columns of the spec's shape, `s` being the subscription and `p` its package. */
const SUBSCRIPTION_COLUMNS = [
  's.id',
  's.owner_id',
  's.start_date',
  's.end_date',
  's.is_auto_renew',
  's.source_type',
  'p.name_en',
  'p.name_mn',
  'p.merchant_code',
  'p.allow_share',
  'p.max_shared_users',
] as const;

/** A subscription joined to its package, with the columns of the spec's subscription shape. */
export function selectSubscriptions(db: Kysely<Database>) {
  return db
    .selectFrom('subscriptions as s')
    .innerJoin('packages as p', 'p.id', 's.package_id')
    .select(SUBSCRIPTION_COLUMNS);
}

export type SubscriptionRow = Awaited<
  ReturnType<ReturnType<typeof selectSubscriptions>['executeTakeFirstOrThrow']>
>;

/** One row of `selectSubscriptions` in the spec's shape (product.md §3 `Subscriptions`). */
export function toSubscriptionView(row: SubscriptionRow, role: SubscriptionView['Role']): SubscriptionView {
  return {
    SubscriptionId: row.id,
    OwnerId: row.owner_id,
    StartDate: row.start_date.toISOString(),
    EndDate: row.end_date.toISOString(),
    IsAutoRenew: row.is_auto_renew,
    PackageCost: {
      Name: [
        { Language: 'en', Value: row.name_en },
        { Language: 'mn', Value: row.name_mn },
      ],
      MerchantCode: row.merchant_code,
      AllowShare: row.allow_share,
      MaxSharedUsers: row.max_shared_users,
    },
    Source: { SourceType: row.source_type as SourceType },
    Role: role,
  };
}

/**
 * The subscriptions a user holds now, in no order: periods they own that have not ended (or that
 * a store renews automatically, or whose failed renewal is being tried again), and shared plans
 * they joined whose owner's period has not ended.
 *
 * Two branches, each found through its own index (the owner's, the member's): a single query
 * with an OR across the owner column and a joined member row makes PostgreSQL read every
 * subscription, and a semi-join of both candidate lists still let it scan a small table with the
 * whole filter (~2× the database's CPU per profile call, docs/performance.md "Round eight").
 */
export function userSubscriptionsQuery(db: Kysely<Database>, userId: string, now: Date) {
  const owned = selectSubscriptions(db)
    .where('s.owner_id', '=', userId)
    .where((eb) =>
      eb.or([
        eb('s.end_date', '>', now),
        eb('s.grace_until', '>', now),
        eb.and([eb('s.is_auto_renew', '=', true), eb('s.source_type', 'in', STORE_RENEWED_SOURCES)]),
      ]),
    );
  const joined = db
    .selectFrom('subscription_members as m')
    .innerJoin('subscriptions as s', 's.id', 'm.subscription_id')
    .innerJoin('packages as p', 'p.id', 's.package_id')
    .select(SUBSCRIPTION_COLUMNS)
    .where('m.user_id', '=', userId)
    // An owner is never a member of their own plan; this keeps the two branches apart regardless.
    .where('s.owner_id', '<>', userId)
    .where((eb) => eb.or([eb('s.end_date', '>', now), eb('s.grace_until', '>', now)]));
  return owned.unionAll(joined);
}

/** Prepared: it runs on every plan check. */
const selectUserSubscriptions = prepared((db: Kysely<Database>, args: { userId: string; now: Date }) =>
  db
    .selectFrom(userSubscriptionsQuery(db, args.userId, args.now).as('s'))
    .selectAll()
    .orderBy('s.end_date', 'desc'),
);

/** Rows of `userSubscriptionsQuery`, newest first, as the profile's `Subscriptions` (product.md §3). */
export function toSubscriptionViews(rows: SubscriptionRow[], userId: string): SubscriptionView[] {
  const owned = rows.filter((row) => row.owner_id === userId);
  const joined = rows.filter((row) => row.owner_id !== userId);
  return [
    ...owned.map((row) => toSubscriptionView(row, 'owner')),
    ...joined.map((row) => toSubscriptionView(row, 'member')),
  ];
}

/** The profile's `Subscriptions` list (product.md §3): owned periods first; the site uses the first. */
export async function listUserSubscriptions(
  db: Kysely<Database>,
  userId: string,
  now: Date,
): Promise<SubscriptionView[]> {
  return toSubscriptionViews(await selectUserSubscriptions(db, { userId, now }), userId);
}

/** Whether the user holds an active subscription of their own or as a member. */
export async function hasActiveSubscription(
  db: Kysely<Database>,
  userId: string,
  now: Date,
): Promise<boolean> {
  return (await listUserSubscriptions(db, userId, now)).length > 0;
}

/**
 * Holds the user's row for the rest of the transaction, so one person's subscription changes
 * (redeeming a voucher, joining a plan) run one at a time and cannot stack two periods.
 */
export async function lockSubscriber(trx: Kysely<Database>, userId: string): Promise<void> {
  const user = await trx
    .selectFrom('users')
    .select('id')
    .where('id', '=', userId)
    .forUpdate()
    .executeTakeFirst();
  if (!user) throw unauthorized('The account no longer exists.');
}
