import { randomUUID } from 'node:crypto';
import {
  type TrialMethod,
  type TrialStartRequest,
  type TrialStartResponse,
  trialEnd,
} from '@tunes/shared/trials';
import type { Kysely } from 'kysely';
import type { Database, Package } from '../../db/schema.js';
import type { Deps } from '../../deps.js';
import { badRequest, notFound } from '../../lib/errors.js';
import { LIMITS } from '../../lib/limits.js';
import { enforce } from '../../lib/throttle.js';
import { recordGrant } from '../premium/ledger.js';
import { findPlanByCode } from '../premium/plans.js';
import { keepCard, openSaveCardPage } from '../premium/saved-cards.js';
import type { ProviderCard } from '../providers/card-gateway.js';
import { accountKey, ClaimTaken, cardKey, claimKeys, notEligible, numberKey, refusalOf } from './claims.js';
import { tellTrialStarted } from './started-notice.js';
import './tables.js';

export type TrialDeps = Pick<Deps, 'db' | 'clock' | 'config' | 'throttle' | 'paymentGateway'>;

/** Where the save-card page sends the listener back: our server, which asks the gateway. */
export const trialReturnUrl = (publicUrl: string, reference: string) =>
  `${publicUrl}/api/payments/trial-return?${new URLSearchParams({ reference }).toString()}`;

/** The plan on sale with a trial, or 400 naming MerchantCode. */
async function trialPlan(deps: Pick<Deps, 'db'>, code: string): Promise<Package> {
  const plan = await findPlanByCode(deps, code);
  if (!plan || plan.trial_days === 0) {
    throw badRequest(`The plan ${code} has no free trial.`, 'MerchantCode');
  }
  return plan;
}

/** The listener, locked for the rest of the transaction when asked: their trial starts take turns. */
export async function listener(db: Kysely<Database>, userId: string, lock: boolean) {
  let query = db
    .selectFrom('users')
    .select(['id', 'phone_number', 'primary_email', 'language'])
    .where('id', '=', userId)
    .where('deleted_at', 'is', null);
  if (lock) query = query.forUpdate();
  const user = await query.executeTakeFirst();
  if (!user) throw notFound('No such user.');
  return user;
}

interface Beginning {
  trialId: string;
  user: { id: string; phone_number: string | null };
  plan: Pick<Package, 'id' | 'trial_days'>;
  method: TrialMethod;
  card?: ProviderCard;
  now: Date;
}

/**
 * The free days begin, inside the caller's transaction: the account, number (and card) are
 * claimed first (ClaimTaken rolls everything back), then a period from now to the trial's end that
 * renews as any other (billing/renewal.ts), backed in the ledger as access given without money,
 * and renewals by the card (kept on file) or by a QPay link. Answers the trial's end.
 */
export async function beginTrial(trx: Kysely<Database>, begin: Beginning): Promise<Date> {
  const { trialId, user, plan, method, card, now } = begin;
  const keys: { kind: ClaimTaken['kind']; key: string }[] = [{ kind: 'account', key: accountKey(user.id) }];
  if (user.phone_number) keys.push({ kind: 'number', key: numberKey(user.phone_number) });
  if (card) keys.push({ kind: 'card', key: cardKey(card) });
  await claimKeys(trx, trialId, now, keys);

  const endsAt = trialEnd(now, plan.trial_days);
  const subscription = await trx
    .insertInto('subscriptions')
    .values({
      owner_id: user.id,
      package_id: plan.id,
      start_date: now,
      end_date: endsAt,
      is_auto_renew: true,
      source_type: 'Web',
      next_billing_at: endsAt,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  await recordGrant(trx, {
    subscriptionId: subscription.id,
    method: 'extension',
    reference: `trial:${trialId}`,
    reason: 'a first-time free trial',
    now,
  });
  if (card) await keepCard({ db: trx, clock: { now: () => now } }, user.id, card);
  await trx
    .insertInto('renewal_methods')
    .values({ user_id: user.id, method, updated_at: now })
    .onConflict((oc) => oc.column('user_id').doUpdateSet({ method, updated_at: now }))
    .execute();
  await trx
    .updateTable('trials')
    .set({ status: 'started', subscription_id: subscription.id, started_at: now, ends_at: endsAt })
    .where('id', '=', trialId)
    .execute();
  return endsAt;
}

/**
 * `POST /api/premium/trial`. QPay: the trial starts at once, renewed by a QPay link. Card: the
 * gateway's save-card page opens (nothing is charged) and the trial starts when the listener
 * comes back with a saved card (card-trial.ts).
 */
export async function startTrial(
  deps: TrialDeps,
  userId: string,
  request: TrialStartRequest,
): Promise<TrialStartResponse> {
  const plan = await trialPlan(deps, request.MerchantCode);
  const now = deps.clock.now();
  if (request.method === 'qpay') {
    let trialId = '';
    const endsAt = await deps.db.transaction().execute(async (trx) => {
      const user = await listener(trx, userId, true);
      const refusal = await refusalOf(trx, user, now);
      if (refusal) throw notEligible(refusal);
      const trial = await trx
        .insertInto('trials')
        .values({
          user_id: userId,
          package_id: plan.id,
          method: 'qpay',
          status: 'pending',
          days: plan.trial_days,
          created_at: now,
        })
        .returning('id')
        .executeTakeFirstOrThrow();
      trialId = trial.id;
      return beginTrial(trx, { trialId: trial.id, user, plan, method: 'qpay', now }).catch(
        (error: unknown) => {
          if (!(error instanceof ClaimTaken)) throw error;
          throw notEligible(error.kind === 'number' ? 'used_number' : 'used_account');
        },
      );
    });
    await tellTrialStarted(deps, trialId);
    return { startedUntil: endsAt.toISOString() };
  }
  return openCardTrial(deps, userId, plan, now);
}

async function openCardTrial(deps: TrialDeps, userId: string, plan: Package, now: Date) {
  // The save-card pages a listener opens share one budget, for a new card or a trial.
  await enforce(deps.throttle, `card-session:${userId}`, LIMITS.checkoutsPerUser);
  const user = await listener(deps.db, userId, false);
  const refusal = await refusalOf(deps.db, user, now);
  if (refusal) throw notEligible(refusal);
  const reference = `trial_${randomUUID()}`;
  await deps.db
    .insertInto('trials')
    .values({
      user_id: userId,
      package_id: plan.id,
      method: 'card',
      status: 'pending',
      days: plan.trial_days,
      reference,
      created_at: now,
    })
    .execute();
  return openSaveCardPage(deps, user, {
    reference,
    redirectUrl: trialReturnUrl(deps.config.PUBLIC_URL, reference),
    onRefused: () =>
      deps.db.updateTable('trials').set({ status: 'cancelled' }).where('reference', '=', reference).execute(),
  });
}
