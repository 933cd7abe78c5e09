import { randomUUID } from 'node:crypto';
import type { ColumnType } from 'kysely';
import type { Deps } from '../../deps.js';
import { notFound } from '../../lib/errors.js';
import { LIMITS } from '../../lib/limits.js';
import { enforce } from '../../lib/throttle.js';
import { keepCard, openSaveCardPage } from '../premium/saved-cards.js';
import '../premium/tables.js';

export type CardReplacementStatus = 'pending' | 'saved' | 'declined' | 'cancelled';

export interface CardReplacementsTable {
  reference: string;
  user_id: string;
  status: ColumnType<CardReplacementStatus, CardReplacementStatus | undefined, CardReplacementStatus>;
  created_at: ColumnType<Date, Date | string, Date | string>;
  settled_at: ColumnType<Date | null, Date | string | null | undefined, Date | string | null>;
}

declare module '../../db/schema.js' {
  interface Database {
    card_replacements: CardReplacementsTable;
  }
}

export type CardReplacementDeps = Pick<Deps, 'db' | 'clock' | 'config' | 'throttle' | 'paymentGateway'>;

/** Where the gateway sends the listener back: our server, which asks the gateway before saying. */
export const cardReturnUrl = (publicUrl: string, reference: string) =>
  `${publicUrl}/api/payments/card-return?${new URLSearchParams({ reference }).toString()}`;

/**
 * `POST /api/users/me/card/replace`: opens the gateway's save-card page (no charge) for a new
 * card on file. The session's reference is ours and unguessable; it names the listener.
 */
export async function startCardReplacement(deps: CardReplacementDeps, userId: string) {
  await enforce(deps.throttle, `card-session:${userId}`, LIMITS.checkoutsPerUser);
  const user = await deps.db
    .selectFrom('users')
    .select(['language', 'phone_number', 'primary_email'])
    .where('id', '=', userId)
    .where('deleted_at', 'is', null)
    .executeTakeFirst();
  if (!user) throw notFound('No such user.');
  const reference = `card_${randomUUID()}`;
  await deps.db
    .insertInto('card_replacements')
    .values({ reference, user_id: userId, created_at: deps.clock.now() })
    .execute();
  return openSaveCardPage(deps, user, {
    reference,
    redirectUrl: cardReturnUrl(deps.config.PUBLIC_URL, reference),
    onRefused: () =>
      deps.db
        .updateTable('card_replacements')
        .set({ status: 'cancelled', settled_at: deps.clock.now() })
        .where('reference', '=', reference)
        .execute(),
  });
}

/**
 * The listener's return from the save-card page: the gateway is asked (never the browser), and
 * a saved card becomes the card on file once, unless a newer one was saved meanwhile or the
 * account is gone. A renewal the old card failed to pay is then tried again with it at once.
 * Answers what the profile says.
 */
export async function finishCardReplacement(
  deps: CardReplacementDeps,
  reference: string,
): Promise<CardReplacementStatus> {
  const row = await deps.db
    .selectFrom('card_replacements')
    .select(['status'])
    .where('reference', '=', reference)
    .executeTakeFirst();
  if (!row) throw notFound('No such card session.');
  if (row.status !== 'pending') return row.status;
  const check = await deps.paymentGateway.checkCardSession(reference);
  const { status, card } = check.result;
  if (status === 'pending') return 'pending';
  const now = deps.clock.now();
  return deps.db.transaction().execute(async (trx) => {
    const closed = await trx
      .updateTable('card_replacements')
      .set({
        status: status === 'saved' && card ? 'saved' : status === 'saved' ? 'declined' : status,
        settled_at: now,
      })
      .where('reference', '=', reference)
      .where('status', '=', 'pending')
      .returning(['user_id', 'status', 'created_at'])
      .executeTakeFirst();
    if (!closed) {
      const again = await trx
        .selectFrom('card_replacements')
        .select('status')
        .where('reference', '=', reference)
        .executeTakeFirstOrThrow();
      return again.status;
    }
    if (closed.status !== 'saved' || !card) return closed.status;
    const live = await trx
      .selectFrom('users')
      .select('id')
      .where('id', '=', closed.user_id)
      .where('deleted_at', 'is', null)
      .forUpdate()
      .executeTakeFirst();
    const newer = await trx
      .selectFrom('card_replacements')
      .select('reference')
      .where('user_id', '=', closed.user_id)
      .where('status', '=', 'saved')
      .where('created_at', '>', closed.created_at)
      .executeTakeFirst();
    if (!live || newer) return closed.status;
    await keepCard({ db: trx, clock: deps.clock }, closed.user_id, card);
    // A renewal the old card failed to pay is tried with the new one at the next job run.
    await trx
      .updateTable('subscriptions')
      .set({ next_billing_at: now })
      .where('owner_id', '=', closed.user_id)
      .where('renewal_attempts', '>', 0)
      .where('is_auto_renew', '=', true)
      .where('grace_until', '>', now)
      .where('next_billing_at', '>', now)
      .where(({ not, exists, selectFrom }) =>
        not(
          exists(
            selectFrom('renewal_methods as m')
              .select('m.user_id')
              .where('m.user_id', '=', closed.user_id)
              .where('m.method', '=', 'qpay'),
          ),
        ),
      )
      .execute();
    return closed.status;
  });
}
