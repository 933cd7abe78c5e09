import { sql } from 'kysely';
import { prepared } from '../../db/prepared.js';
import { type Db, type SharingPlan, selectPlan } from './sharing-plan.js';
import './tables.js';

/*
 * The seat limit (security.md): a plan never holds more members than its MaxSharedUsers, whatever
 * runs at once. Every change of a plan's seats (a new invitation code, an accepted one, a removed
 * member, a member leaving or deleting their account) first takes the plan's row FOR UPDATE (`findSharingPlan(…, lock)`) inside its
 * transaction, so the counts below are never read by two changes at the same time.
 * Proven by test/family/seat-limit.test.ts.
 */

const countMembers = prepared((db: Db, args: { subscriptionId: string }) =>
  db
    .selectFrom('subscription_members')
    .select((eb) => eb.fn.countAll<string>().as('count'))
    .where('subscription_id', '=', args.subscriptionId),
);
const selectLiveCodes = prepared((db: Db, args: { subscriptionId: string; now: Date }) =>
  db
    .selectFrom('invitation_codes')
    .select('code')
    .where('subscription_id', '=', args.subscriptionId)
    .where('used_by', 'is', null)
    .where('expires_at', '>', args.now)
    .orderBy('created_at')
    .orderBy('code'),
);

/**
 * A plan with its members and live codes in one statement, for reads that change nothing (the
 * owner's list of links): one round trip instead of three, all read from one snapshot.
 */
const selectPlanWithSeats = prepared((db: Db, args: { subscriptionId: string; now: Date }) =>
  selectPlan(db, args.subscriptionId).select((eb) => [
    eb
      .selectFrom('subscription_members as m')
      .select((count) => count.fn.countAll<string>().as('count'))
      .whereRef('m.subscription_id', '=', 's.id')
      .as('members'),
    eb
      .selectFrom('invitation_codes as c')
      .select(sql<string[]>`coalesce(array_agg(c.code order by c.created_at, c.code), '{}')`.as('codes'))
      .whereRef('c.subscription_id', '=', 's.id')
      .where('c.used_by', 'is', null)
      .where('c.expires_at', '>', args.now)
      .as('live_codes'),
  ]),
);

/** The plan with `seatUsage`'s figures, read together; undefined when there is no such plan. */
export async function findPlanWithSeats(
  db: Db,
  subscriptionId: string,
  now: Date,
): Promise<(SharingPlan & { members: number; liveCodes: string[] }) | undefined> {
  const [row] = await selectPlanWithSeats(db, { subscriptionId, now });
  if (!row) return undefined;
  const { members, live_codes, ...plan } = row;
  return { ...plan, members: Number(members ?? 0), liveCodes: live_codes ?? [] };
}

/** Members on the plan and its unused, unexpired invitation codes. */
export async function seatUsage(db: Db, subscriptionId: string, now: Date) {
  const [[members], codes] = await Promise.all([
    countMembers(db, { subscriptionId }),
    selectLiveCodes(db, { subscriptionId, now }),
  ]);
  return { members: Number(members?.count ?? 0), liveCodes: codes.map((row) => row.code) };
}

/** Seats left for new invitation codes: MaxSharedUsers minus members minus live codes. */
export function remainingSeats(plan: SharingPlan, members: number, liveCodes: number, now: Date): number {
  if (plan.end_date <= now) return 0;
  return Math.max(0, plan.max_shared_users - members - liveCodes);
}

/** Whether one more member fits; live codes do not count, as the joining member holds one. */
export function hasSeatForMember(plan: SharingPlan, members: number): boolean {
  return members < plan.max_shared_users;
}
