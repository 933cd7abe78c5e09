import type { RenewalMethod } from '@tunes/shared/billing';
import { API_ERROR_CODES } from '@tunes/shared/error-codes';
import type { ColumnType } from 'kysely';
import type { Deps } from '../../deps.js';
import { conflict } from '../../lib/errors.js';
import '../premium/tables.js';

export interface RenewalMethodsTable {
  user_id: string;
  method: RenewalMethod;
  updated_at: ColumnType<Date, Date | string, Date | string>;
}

declare module '../../db/schema.js' {
  interface Database {
    renewal_methods: RenewalMethodsTable;
  }
}

/**
 * How the listener's renewals are paid: `card` charges the card on file on the end date; `qpay`
 * sends the renewal invoice's link (the site's page offering QPay and card) 3 days before. Without
 * a choice, the card on file is charged when there is one.
 */
export async function chosenRenewalMethod(deps: Pick<Deps, 'db'>, userId: string): Promise<RenewalMethod> {
  const row = await deps.db
    .selectFrom('renewal_methods')
    .select('method')
    .where('user_id', '=', userId)
    .executeTakeFirst();
  return row?.method ?? 'card';
}

/**
 * `PUT /api/users/me/renewal-method`: renewals by the card on file (which must exist) or by a
 * QPay link. The card stays on file either way.
 */
export async function chooseRenewalMethod(
  deps: Pick<Deps, 'db' | 'clock'>,
  userId: string,
  method: RenewalMethod,
): Promise<void> {
  await deps.db.transaction().execute(async (trx) => {
    if (method === 'card') {
      const card = await trx
        .selectFrom('saved_cards')
        .select('user_id')
        .where('user_id', '=', userId)
        .forShare()
        .executeTakeFirst();
      if (!card) throw conflict('There is no card on file to renew with.', API_ERROR_CODES.noCard);
    }
    await trx
      .insertInto('renewal_methods')
      .values({ user_id: userId, method, updated_at: deps.clock.now() })
      .onConflict((oc) => oc.column('user_id').doUpdateSet({ method, updated_at: deps.clock.now() }))
      .execute();
  });
}
