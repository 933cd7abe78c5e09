import type { Deps } from '../../deps.js';
import './tables.js';

/** How support sees a listener and a subscription (docs/console-api.md §4), and how it finds them. */
export const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
export type SupportDeps = Pick<Deps, 'db' | 'clock'>;

export const userColumns = [
  'id',
  'phone_number',
  'primary_email',
  'first_name',
  'last_name',
  'created_at',
  'deleted_at',
  'language',
] as const;

type UserRow = {
  id: string;
  phone_number: string | null;
  primary_email: string | null;
  first_name: string;
  last_name: string;
  created_at: Date;
  deleted_at: Date | null;
};

export function toUserSummary(row: UserRow) {
  return {
    id: row.id,
    msisdn: row.phone_number,
    email: row.primary_email,
    firstName: row.first_name || null,
    lastName: row.last_name || null,
    createdAt: row.created_at.toISOString(),
    deleted: row.deleted_at !== null,
  };
}

export async function userRow(deps: Pick<Deps, 'db'>, id: string) {
  if (!UUID.test(id)) return undefined;
  return deps.db.selectFrom('users').select(userColumns).where('id', '=', id).executeTakeFirst();
}

export function subscriptionsOf(deps: Pick<Deps, 'db'>) {
  return deps.db
    .selectFrom('subscriptions as s')
    .innerJoin('packages as p', 'p.id', 's.package_id')
    .select([
      's.id',
      's.owner_id',
      's.start_date',
      's.end_date',
      's.is_auto_renew',
      's.cancelled_at',
      's.grace_until',
      'p.merchant_code',
      'p.name_en',
      'p.allow_share',
      'p.max_shared_users',
    ]);
}
type SubscriptionRow = Awaited<ReturnType<ReturnType<typeof subscriptionsOf>['executeTakeFirstOrThrow']>>;

export function toSubscriptionView(row: SubscriptionRow, userId: string, now: Date) {
  const live = row.end_date > now || (row.grace_until !== null && row.grace_until > now);
  return {
    id: row.id,
    packageCode: row.merchant_code,
    packageName: row.name_en,
    status: live ? ('active' as const) : row.cancelled_at ? ('cancelled' as const) : ('ended' as const),
    startDate: row.start_date.toISOString(),
    endDate: row.end_date.toISOString(),
    autoRenew: row.is_auto_renew,
    role: row.owner_id === userId ? ('owner' as const) : ('member' as const),
  };
}
