import { API_ERROR_CODES } from '@tunes/shared/error-codes';
import type { TrialReturnOutcome } from '@tunes/shared/trials';
import { notFound } from '../../lib/errors.js';
import { ClaimTaken, refusalOf } from './claims.js';
import { beginTrial, listener, type TrialDeps } from './start.js';
import { tellTrialStarted } from './started-notice.js';
import type { TrialsTable } from './tables.js';

/** What the profile says of a trial row that is no longer pending. */
function outcomeOf(row: Pick<TrialsTable, 'status' | 'refusal'>): TrialReturnOutcome {
  if (row.status === 'refused') {
    return row.refusal === API_ERROR_CODES.trialCardUsed ? 'trial_card_used' : 'trial_not_eligible';
  }
  return row.status;
}

/** Refused inside the start's transaction: nothing of it is kept but the refusal. */
class Refused extends Error {
  constructor(readonly outcome: 'trial_card_used' | 'trial_not_eligible') {
    super(outcome);
  }
}

/**
 * The listener's return from the trial's save-card page: the gateway is asked (never the
 * browser). A saved card starts the trial once, however often the return is loaded, unless the
 * person or the card had a trial (or Premium came meanwhile): then nothing starts and the card
 * is not kept. Answers what `/profile?trial=` says.
 */
export async function finishCardTrial(deps: TrialDeps, reference: string): Promise<TrialReturnOutcome> {
  const row = await deps.db
    .selectFrom('trials')
    .select(['id', 'status', 'refusal'])
    .where('reference', '=', reference)
    .executeTakeFirst();
  if (!row) throw notFound('No such trial.');
  if (row.status !== 'pending') return outcomeOf(row);
  const { status, card } = (await deps.paymentGateway.checkCardSession(reference)).result;
  if (status === 'pending') return 'pending';
  const now = deps.clock.now();
  if (status !== 'saved' || !card) {
    const closed = await deps.db
      .updateTable('trials')
      .set({ status: status === 'saved' ? 'declined' : status })
      .where('reference', '=', reference)
      .where('status', '=', 'pending')
      .returning(['status', 'refusal'])
      .executeTakeFirst();
    return closed ? outcomeOf(closed) : finishCardTrial(deps, reference);
  }
  try {
    const outcome = await deps.db.transaction().execute(async (trx) => {
      const trial = await trx
        .selectFrom('trials')
        .select(['id', 'user_id', 'status', 'refusal', 'days', 'package_id'])
        .where('reference', '=', reference)
        .forUpdate()
        .executeTakeFirstOrThrow();
      if (trial.status !== 'pending') return outcomeOf(trial);
      const user = await listener(trx, trial.user_id, true).catch(() => null);
      if (!user || (await refusalOf(trx, user, now))) throw new Refused('trial_not_eligible');
      await beginTrial(trx, {
        trialId: trial.id,
        user,
        plan: { id: trial.package_id, trial_days: trial.days },
        method: 'card',
        card,
        now,
      }).catch((error: unknown) => {
        if (!(error instanceof ClaimTaken)) throw error;
        throw new Refused(error.kind === 'card' ? 'trial_card_used' : 'trial_not_eligible');
      });
      return 'started' as const;
    });
    // Once per trial (its key), however many returns reach this point.
    if (outcome === 'started') await tellTrialStarted(deps, row.id);
    return outcome;
  } catch (error) {
    if (!(error instanceof Refused)) throw error;
    await deps.db
      .updateTable('trials')
      .set({ status: 'refused', refusal: error.outcome })
      .where('reference', '=', reference)
      .where('status', '=', 'pending')
      .execute();
    return error.outcome;
  }
}
