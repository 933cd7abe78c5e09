import { API_ERROR_CODES } from '@tunes/shared/error-codes';
import type { Deps } from '../../deps.js';
import { conflict, notFound } from '../../lib/errors.js';
import { audit } from './audit.js';
import { issueSetupLink } from './operator-setup.js';
import { type Db, type OperatorView, operatorColumns, toOperatorView } from './operator-view.js';
import type { OperatorRole } from './tables.js';
import './tables.js';

export async function listOperators(db: Db): Promise<OperatorView[]> {
  const rows = await db.selectFrom('operators').select(operatorColumns).orderBy('email').execute();
  return rows.map(toOperatorView);
}

/** A new operator (not yet set up) and their set-up link; `actorId` is the admin who asked, if any. */
export async function createOperator(
  deps: Pick<Deps, 'db' | 'clock'>,
  input: { email: string; role: OperatorRole },
  actorId: string | null,
): Promise<{ operator: OperatorView; setupUrl: string }> {
  const now = deps.clock.now();
  const email = input.email.trim().toLowerCase();
  return deps.db.transaction().execute(async (trx) => {
    const row = await trx
      .insertInto('operators')
      .values({ email, role: input.role, created_at: now })
      .onConflict((oc) => oc.column('email').doNothing())
      .returning(operatorColumns)
      .executeTakeFirst();
    if (!row)
      throw conflict(`An operator with the e-mail ${email} already exists.`, API_ERROR_CODES.operatorExists);
    const { setupUrl } = await issueSetupLink(trx, row.id, now);
    const operator = toOperatorView(row);
    if (actorId) {
      await audit(trx, now, {
        operatorId: actorId,
        action: 'operator.create',
        targetType: 'operator',
        targetId: row.id,
        after: operator,
      });
    }
    return { operator, setupUrl };
  });
}

/** An admin changes another operator's role or disables them (which ends their sessions). */
export async function updateOperator(
  deps: Pick<Deps, 'db' | 'clock'>,
  actorId: string,
  id: string,
  change: { role?: OperatorRole | undefined; disabled?: boolean | undefined },
): Promise<OperatorView> {
  if (id === actorId) {
    throw conflict('You cannot change your own role or disable yourself.', API_ERROR_CODES.cannotChangeSelf);
  }
  const now = deps.clock.now();
  return deps.db.transaction().execute(async (trx) => {
    const before = await trx
      .selectFrom('operators')
      .select(operatorColumns)
      .where('id', '=', id)
      .forUpdate()
      .executeTakeFirst();
    if (!before) throw notFound('No such operator.');
    const row = await trx
      .updateTable('operators')
      .set({
        ...(change.role ? { role: change.role } : {}),
        ...(change.disabled === undefined
          ? {}
          : { disabled_at: change.disabled ? (before.disabled_at ?? now) : null }),
      })
      .where('id', '=', id)
      .returning(operatorColumns)
      .executeTakeFirstOrThrow();
    if (change.disabled) {
      await trx
        .updateTable('operator_sessions')
        .set({ ended_at: now })
        .where('operator_id', '=', id)
        .where('ended_at', 'is', null)
        .execute();
    }
    const operator = toOperatorView(row);
    await audit(trx, now, {
      operatorId: actorId,
      action: 'operator.update',
      targetType: 'operator',
      targetId: id,
      before: toOperatorView(before),
      after: operator,
    });
    return operator;
  });
}

/**
 * A fresh set-up link for an operator who lost their authenticator or password; the old ones and
 * their sessions end with it (issueSetupLink) and they enrol again.
 */
export async function reissueSetupLink(
  deps: Pick<Deps, 'db' | 'clock'>,
  actorId: string,
  id: string,
): Promise<string> {
  const now = deps.clock.now();
  return deps.db.transaction().execute(async (trx) => {
    const before = await trx
      .selectFrom('operators')
      .select(operatorColumns)
      .where('id', '=', id)
      .forUpdate()
      .executeTakeFirst();
    if (!before) throw notFound('No such operator.');
    const { setupUrl, sessionsEnded } = await issueSetupLink(trx, id, now);
    await audit(trx, now, {
      operatorId: actorId,
      action: 'operator.setup_link',
      targetType: 'operator',
      targetId: id,
      before: { setUp: toOperatorView(before).setUp },
      after: { setUp: false, sessionsEnded },
    });
    return setupUrl;
  });
}
