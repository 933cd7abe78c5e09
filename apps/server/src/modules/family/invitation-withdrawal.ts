import type { Deps } from '../../deps.js';
import { notFound } from '../../lib/errors.js';
import { findSharingPlan } from './sharing-plan.js';
import './tables.js';

const noSuchInvitation = () => notFound('No such unused invitation on your plan.');

/**
 * The owner withdraws an unused, unexpired invitation: its link stops working at once and its
 * seat is free again. Like an accept it first takes the plan's row FOR UPDATE (sharing-plan.ts),
 * so a withdrawal and an accept of one code run one after the other: whichever comes first
 * wins and the other finds the code gone or spent (never both). Anyone but the owner, and any
 * code that is not one of the plan's live ones, get the same 404: the answer tells nothing.
 */
export async function withdrawInvitation(
  deps: Pick<Deps, 'db' | 'clock'>,
  subscriptionId: string,
  userId: string,
  code: string,
): Promise<void> {
  const now = deps.clock.now();
  await deps.db.transaction().execute(async (trx) => {
    const plan = await findSharingPlan(trx, subscriptionId, true);
    if (!plan || plan.owner_id !== userId || !plan.allow_share) throw noSuchInvitation();
    const withdrawn = await trx
      .deleteFrom('invitation_codes')
      .where('code', '=', code)
      .where('subscription_id', '=', subscriptionId)
      .where('used_by', 'is', null)
      .where('expires_at', '>', now)
      .executeTakeFirst();
    if (Number(withdrawn.numDeletedRows) === 0) throw noSuchInvitation();
  });
}
