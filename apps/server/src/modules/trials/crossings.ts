import { API_ERROR_CODES } from '@tunes/shared/error-codes';
import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.js';
import { conflict } from '../../lib/errors.js';
import { trialEndingAt } from './state.js';
import './tables.js';

/**
 * Where a trial meets the rest of the account (decision 0045, "Crossings"): a pause, the
 * account's data export. A plan change in the free days is priced in billing/plan-change-quote.ts.
 */

/**
 * A pause in the free days is refused: it moves a charge for a period paid for, and the free
 * days are paid for by nobody (YouTube Premium does not pause a trial either). To pay nothing
 * the listener cancels; after the first paid renewal the plan may be paused as any other.
 */
export async function refusePauseInTrial(
  db: Kysely<Database>,
  subscription: { id: string; end_date: Date },
): Promise<void> {
  if (await trialEndingAt(db, subscription.id, subscription.end_date)) {
    throw conflict(
      'A free trial cannot be paused. To pay nothing, cancel it on your profile before it ends.',
      API_ERROR_CODES.trialNotPausable,
    );
  }
}

/** Whether the plan's current period is a trial's free days: the pause state says `trial`. */
export async function inTrial(db: Kysely<Database>, subscription: { id: string; end_date: Date }) {
  return Boolean(await trialEndingAt(db, subscription.id, subscription.end_date));
}

/**
 * The account's trials for its data export (product.md §14): each trial asked for, its plan,
 * how it renews, what became of it, and which of the account's keys (account, phone number,
 * card) it claimed. The claims themselves are digests and stay after a deletion.
 */
export async function trialsForExport(db: Kysely<Database>, userId: string) {
  const rows = await db
    .selectFrom('trials as t')
    .innerJoin('packages as p', 'p.id', 't.package_id')
    .select(['t.id', 't.method', 't.status', 't.days', 't.created_at', 't.started_at', 't.ends_at'])
    .select(['p.merchant_code', 'p.name_en'])
    .where('t.user_id', '=', userId)
    .orderBy('t.created_at', 'desc')
    .execute();
  const claims = rows.length
    ? await db
        .selectFrom('trial_claims')
        .select(['trial_id', 'key'])
        .where(
          'trial_id',
          'in',
          rows.map((row) => row.id),
        )
        .execute()
    : [];
  return rows.map((row) => ({
    plan: row.merchant_code,
    planName: row.name_en,
    method: row.method,
    status: row.status,
    days: row.days,
    askedAt: row.created_at.toISOString(),
    startedAt: row.started_at?.toISOString() ?? null,
    freeUntil: row.ends_at?.toISOString() ?? null,
    claimed: claims
      .filter((claim) => claim.trial_id === row.id)
      .map((claim) => claim.key.split(':')[0] ?? '')
      .sort(),
  }));
}
