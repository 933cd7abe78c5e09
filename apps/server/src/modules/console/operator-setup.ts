import { DAY_MS } from '@tunes/shared/constants';
import { API_ERROR_CODES } from '@tunes/shared/error-codes';
import type { Deps } from '../../deps.js';
import { AppError, badRequest } from '../../lib/errors.js';
import { LIMITS } from '../../lib/limits.js';
import { qrDataUrl } from '../../lib/qr-image.js';
import { enforce } from '../../lib/throttle.js';
import { hashPassword, randomToken, sha256 } from '../accounts/secrets.js';
import { audit } from './audit.js';
import { openSession } from './operator-sessions.js';
import {
  type ConsoleDeps,
  type Db,
  type OperatorView,
  operatorColumns,
  toOperatorView,
} from './operator-view.js';
import { newTotpSecret, totpUri, verifyTotp } from './totp.js';
import './tables.js';

/** An operator's enrolment: the one-time set-up link, the TOTP secret, the password. */
export const SETUP_LINK_TTL_MS = DAY_MS;
export const PASSWORD_MIN_LENGTH = 12;

export const setupUrlFor = (token: string) => `/admin/setup?token=${token}`;

/**
 * A new one-time set-up link for the operator, in the caller's transaction. Their earlier unused
 * links stop working, and so do their password, authenticator and sessions: whoever held them
 * (the reason a new link is asked for) cannot sign in while the operator enrols again.
 */
export async function issueSetupLink(
  trx: Db,
  operatorId: string,
  now: Date,
): Promise<{ setupUrl: string; sessionsEnded: number }> {
  await trx.deleteFrom('operator_setup_links').where('operator_id', '=', operatorId).execute();
  await trx
    .updateTable('operators')
    .set({ password_hash: null, totp_secret: null, totp_last_step: null })
    .where('id', '=', operatorId)
    .execute();
  const ended = await trx
    .updateTable('operator_sessions')
    .set({ ended_at: now })
    .where('operator_id', '=', operatorId)
    .where('ended_at', 'is', null)
    .executeTakeFirst();
  const token = randomToken();
  await trx
    .insertInto('operator_setup_links')
    .values({
      token_hash: sha256(token),
      operator_id: operatorId,
      expires_at: new Date(now.getTime() + SETUP_LINK_TTL_MS),
      created_at: now,
    })
    .execute();
  return { setupUrl: setupUrlFor(token), sessionsEnded: Number(ended.numUpdatedRows) };
}

const setupLinkInvalid = () =>
  new AppError(
    404,
    API_ERROR_CODES.setupLinkInvalid,
    'This set-up link is unknown, used or expired. Ask an admin for a new one.',
  );

async function liveSetupLink(db: Db, token: string, now: Date) {
  if (token.length < 20 || token.length > 100) return undefined;
  return db
    .selectFrom('operator_setup_links as l')
    .innerJoin('operators as o', 'o.id', 'l.operator_id')
    .select(['l.token_hash', 'l.operator_id', 'l.pending_totp_secret', 'o.email', 'o.role'])
    .where('l.token_hash', '=', sha256(token))
    .where('l.used_at', 'is', null)
    .where('l.expires_at', '>', now)
    .executeTakeFirst();
}

/** Step one of set-up: a fresh TOTP secret for the link, as a URI, a QR and text. */
export async function startSetup(deps: Pick<Deps, 'db' | 'clock'>, token: string) {
  const now = deps.clock.now();
  const link = await liveSetupLink(deps.db, token, now);
  if (!link) throw setupLinkInvalid();
  const secret = newTotpSecret();
  await deps.db
    .updateTable('operator_setup_links')
    .set({ pending_totp_secret: secret })
    .where('token_hash', '=', link.token_hash)
    .where('used_at', 'is', null)
    .execute();
  const otpauthUri = totpUri(link.email, secret);
  return { email: link.email, role: link.role, otpauthUri, qrDataUrl: await qrDataUrl(otpauthUri), secret };
}

export function checkPassword(password: string): void {
  if (password.length < PASSWORD_MIN_LENGTH || password.length > 200) {
    throw badRequest(`The password must be ${PASSWORD_MIN_LENGTH} to 200 characters long.`, 'password');
  }
}

/** Step two: password and the first TOTP code; uses the link up (once, whatever runs at once). */
export async function completeSetup(
  deps: ConsoleDeps,
  input: { token: string; password: string; code: string },
): Promise<{ operator: OperatorView; sessionToken: string }> {
  const now = deps.clock.now();
  checkPassword(input.password);
  const link = await liveSetupLink(deps.db, input.token, now);
  if (!link?.pending_totp_secret) throw setupLinkInvalid();
  await enforce(deps.throttle, `console-setup:${link.token_hash}`, LIMITS.consoleSetupCodeTries);
  const step = await verifyTotp(link.pending_totp_secret, input.code, now, null);
  if (step === null)
    throw badRequest(
      'The code from the authenticator app is not right.',
      'code',
      API_ERROR_CODES.invalidTotp,
    );
  const passwordHash = await hashPassword(input.password);
  const secret = link.pending_totp_secret;
  return deps.db.transaction().execute(async (trx) => {
    const used = await trx
      .updateTable('operator_setup_links')
      .set({ used_at: now })
      .where('token_hash', '=', link.token_hash)
      .where('used_at', 'is', null)
      .where('pending_totp_secret', '=', secret)
      .returning('operator_id')
      .executeTakeFirst();
    if (!used) throw setupLinkInvalid();
    const row = await trx
      .updateTable('operators')
      .set({ password_hash: passwordHash, totp_secret: secret, totp_last_step: step, last_sign_in_at: now })
      .where('id', '=', used.operator_id)
      .returning(operatorColumns)
      .executeTakeFirstOrThrow();
    // A new enrolment ends the sessions of the old one.
    await trx
      .updateTable('operator_sessions')
      .set({ ended_at: now })
      .where('operator_id', '=', row.id)
      .where('ended_at', 'is', null)
      .execute();
    const sessionToken = await openSession(trx, row.id, now);
    const operator = toOperatorView(row);
    await audit(trx, now, {
      operatorId: row.id,
      action: 'operator.setup',
      targetType: 'operator',
      targetId: row.id,
    });
    return { operator, sessionToken };
  });
}
