import { type Expression, sql } from 'kysely';
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

/** A plan's key: its id as a value, or `s.id` of a query that selects the plan. */
type PlanKey = string | Expression<string>;

/** How many members a plan has. */
function membersOf(db: Db, plan: PlanKey) {
  return db
    .selectFrom('subscription_members as m')
    .select((eb) => eb.fn.countAll<string>().as('count'))
    .where('m.subscription_id', '=', plan);
}

/** A plan's codes that still hold a seat (unused, unexpired), oldest first. */
function liveCodesOf(db: Db, plan: PlanKey, now: Date) {
  return db
    .selectFrom('invitation_codes as c')
    .select('c.code')
    .where('c.subscription_id', '=', plan)
    .where('c.used_by', 'is', null)
    .where('c.expires_at', '>', now)
    .orderBy('c.created_at')
    .orderBy('c.code');
}

const countMembers = prepared((db: Db, args: { subscriptionId: string }) =>
  membersOf(db, args.subscriptionId),
);
const selectLiveCodes = prepared((db: Db, args: { subscriptionId: string; now: Date }) =>
  liveCodesOf(db, args.subscriptionId, args.now),
);

/**
 * A plan with its members and live codes in one statement, for reads that change nothing (the
 * owner's list of links): one round trip instead of three, all read from one snapshot. Changes
 * of seats cannot use it: they must count after the plan's row lock is theirs, not in the
 * statement that waits for it.
 */
const selectPlanWithSeats = prepared((db: Db, args: { subscriptionId: string; now: Date }) => {
  const plan = sql.ref<string>('s.id');
  return selectPlan(db, args.subscriptionId).select([
    membersOf(db, plan).as('members'),
    sql<string[]>`array(${liveCodesOf(db, plan, args.now)})`.as('live_codes'),
  ]);
});

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
