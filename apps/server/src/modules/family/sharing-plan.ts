import { API_ERROR_CODES } from '@tunes/shared/error-codes';
import type { Kysely, Transaction } from 'kysely';
import { prepared } from '../../db/prepared.js';
import type { Database } from '../../db/schema.js';
import { conflict, forbidden, notFound } from '../../lib/errors.js';
import './tables.js';

/** A database or the caller's transaction: these reads compose into a service's transaction. */
export type Db = Kysely<Database> | Transaction<Database>;

export interface SharingPlan {
  id: string;
  owner_id: string;
  /** When access ends: the period's end, or later while a failed renewal is tried again. */
  end_date: Date;
  allow_share: boolean;
  max_shared_users: number;
}

/** The subscription with its package's sharing rules. */
export function selectPlan(db: Db, subscriptionId: string) {
  return db
    .selectFrom('subscriptions as s')
    .innerJoin('packages as p', 'p.id', 's.package_id')
    .select((eb) => [
      's.id',
      's.owner_id',
      eb.fn<Date>('greatest', ['s.end_date', 's.grace_until']).as('end_date'),
      'p.allow_share',
      'p.max_shared_users',
    ])
    .where('s.id', '=', subscriptionId);
}
const selectPlanForRead = prepared((db: Db, args: { subscriptionId: string }) =>
  selectPlan(db, args.subscriptionId),
);
const selectPlanForUpdate = prepared((db: Db, args: { subscriptionId: string }) =>
  selectPlan(db, args.subscriptionId).forUpdate('s'),
);

/**
 * `lock` takes the subscription row FOR UPDATE, so every change of its seats runs one at a time:
 * the seat limit (seat-limit.ts) depends on it.
 */
export async function findSharingPlan(
  db: Db,
  subscriptionId: string,
  lock = false,
): Promise<SharingPlan | undefined> {
  const [plan] = await (lock ? selectPlanForUpdate : selectPlanForRead)(db, { subscriptionId });
  return plan;
}

/** Only the owner of a sharing package manages it (product.md §6). */
export async function ownedSharingPlan(
  db: Db,
  subscriptionId: string,
  userId: string,
  lock = false,
): Promise<SharingPlan> {
  return managedBy(await findSharingPlan(db, subscriptionId, lock), userId);
}

/** The plan, if `userId` may manage it: it exists, is theirs, and its package is shared. */
export function managedBy<Plan extends SharingPlan>(plan: Plan | undefined, userId: string): Plan {
  if (!plan) throw notFound('No such subscription.');
  if (plan.owner_id !== userId) throw forbidden('Only the owner of this plan may manage it.');
  if (!plan.allow_share) throw conflict('This plan cannot be shared.', API_ERROR_CODES.planNotShared);
  return plan;
}
