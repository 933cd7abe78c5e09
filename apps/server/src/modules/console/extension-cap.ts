import { DAY_MS } from '@tunes/shared/constants';
import { API_ERROR_CODES } from '@tunes/shared/error-codes';
import { sql } from 'kysely';
import type { Deps } from '../../deps.js';
import { AppError } from '../../lib/errors.js';
import { audit } from './audit.js';
import type { OperatorRole } from './tables.js';

/**
 * The days an operator may extend one subscription by (security.md): in one action, and in any
 * 30 days by all operators together. Support gives goodwill days; more is an admin's decision.
 */
export const EXTENSION_CAPS = { support: 31, admin: 366 } as const;
export const EXTENSION_WINDOW_DAYS = 30;

const capOf = (role: OperatorRole) => (role === 'admin' ? EXTENSION_CAPS.admin : EXTENSION_CAPS.support);

const overCap = (message: string) => new AppError(403, API_ERROR_CODES.extensionCap, message);

/**
 * Checks an extension of `days` against the caps, under the subscription's row lock (so
 * extensions at once are judged one after another), reading what the audit log holds of the
 * last 30 days. A refusal is audited here and answered: the caller commits its transaction (the
 * audit entry) and throws it.
 */
export async function refuseOverCap(
  trx: Deps['db'],
  now: Date,
  extension: { operatorId: string; role: OperatorRole; userId: string; subscriptionId: string; days: number },
): Promise<AppError | null> {
  const cap = capOf(extension.role);
  const given = await trx
    .selectFrom('operator_audit')
    .select(sql<string>`coalesce(sum((after->>'days')::integer), 0)`.as('days'))
    .where('action', '=', 'user.extend')
    .where('target_id', '=', extension.subscriptionId)
    .where('created_at', '>', new Date(now.getTime() - EXTENSION_WINDOW_DAYS * DAY_MS))
    .executeTakeFirst();
  const daysGiven = Number(given?.days ?? 0);
  let refusal: AppError | null = null;
  if (extension.days > cap) {
    refusal = overCap(
      `A ${extension.role} operator extends by at most ${cap} days at a time.${extension.role === 'admin' ? '' : ' Ask an admin for more.'}`,
    );
  } else if (daysGiven + extension.days > cap) {
    refusal = overCap(
      `This subscription was extended by ${daysGiven} days in the last ${EXTENSION_WINDOW_DAYS}; a ${extension.role} operator may extend it by at most ${cap} days in ${EXTENSION_WINDOW_DAYS} days.`,
    );
  }
  if (refusal) {
    await audit(trx, now, {
      operatorId: extension.operatorId,
      action: 'user.extend.refused',
      targetType: 'subscription',
      targetId: extension.subscriptionId,
      after: { days: extension.days, cap, daysGiven, userId: extension.userId },
    });
  }
  return refusal;
}
