import { API_ERROR_CODES } from '@tunes/shared/error-codes';
import type { Deps } from '../../deps.js';
import { AppError } from '../../lib/errors.js';
import { LIMITS } from '../../lib/limits.js';
import { type PasswordTryLimits, withPasswordTries } from '../accounts/password-tries.js';
import { randomToken, sha256, verifyPassword } from '../accounts/secrets.js';
import { audit } from './audit.js';
import {
  type ConsoleDeps,
  type Db,
  type OperatorView,
  operatorColumns,
  toOperatorView,
} from './operator-view.js';
import { verifyTotp } from './totp.js';
import './tables.js';

export const SESSION_IDLE_MS = 30 * 60 * 1000;
export const SESSION_MAX_MS = 12 * 60 * 60 * 1000;
/** Failed sign-ins count per operator and client address, and per operator from everywhere. */
const SIGN_IN_TRIES: PasswordTryLimits = {
  keyPrefix: 'console-sign-in',
  fromClient: LIMITS.consoleSignInTriesFromClient,
  perAccount: LIMITS.consoleSignInTriesPerAccount,
};

const invalidCredentials = () =>
  new AppError(
    401,
    API_ERROR_CODES.invalidCredentials,
    'The e-mail, password or authenticator code is not right.',
  );

/**
 * Sign-in with e-mail, password and a TOTP code not used before. Failures are counted before the
 * check (security.md): 5 per operator and client address per 15 min, 20 per operator an hour from
 * everywhere; a stranger's guesses close their own address, not the operator's console.
 */
export async function signIn(
  deps: ConsoleDeps,
  input: { email: string; password: string; code: string },
  clientAddress: string,
): Promise<{ operator: OperatorView; sessionToken: string }> {
  const email = input.email.trim().toLowerCase();
  return withPasswordTries(deps, email, clientAddress, () => checkSignIn(deps, email, input), SIGN_IN_TRIES);
}

async function checkSignIn(
  deps: ConsoleDeps,
  email: string,
  input: { password: string; code: string },
): Promise<{ operator: OperatorView; sessionToken: string }> {
  const now = deps.clock.now();
  const row = await deps.db
    .selectFrom('operators')
    .select([...operatorColumns, 'totp_last_step'])
    .where('email', '=', email)
    .executeTakeFirst();
  const passwordRight = await verifyPassword(input.password, row?.password_hash ?? null);
  if (!row || !passwordRight || row.disabled_at || !row.totp_secret) throw invalidCredentials();
  const lastStep = row.totp_last_step === null ? null : Number(row.totp_last_step);
  const totpSecret = row.totp_secret;
  const step = await verifyTotp(totpSecret, input.code, now, lastStep);
  if (step === null) throw invalidCredentials();
  const result = await deps.db.transaction().execute(async (trx) => {
    // The step moves forward once: a code replayed at once, or later, is refused here.
    const taken = await trx
      .updateTable('operators')
      .set({ totp_last_step: step, last_sign_in_at: now })
      .where('id', '=', row.id)
      .where((eb) => eb.or([eb('totp_last_step', 'is', null), eb('totp_last_step', '<', String(step))]))
      .where('disabled_at', 'is', null)
      // A set-up link issued since the check above ended these credentials (issueSetupLink).
      .where('totp_secret', '=', totpSecret)
      .returning(operatorColumns)
      .executeTakeFirst();
    if (!taken) return null;
    const sessionToken = await openSession(trx, row.id, now);
    await audit(trx, now, {
      operatorId: row.id,
      action: 'operator.sign_in',
      targetType: 'operator',
      targetId: row.id,
    });
    return { operator: toOperatorView(taken), sessionToken };
  });
  if (!result) throw invalidCredentials();
  return result;
}

export async function openSession(trx: Db, operatorId: string, now: Date): Promise<string> {
  const token = randomToken();
  await trx
    .insertInto('operator_sessions')
    .values({
      token_hash: sha256(token),
      operator_id: operatorId,
      created_at: now,
      last_seen_at: now,
      expires_at: new Date(now.getTime() + SESSION_MAX_MS),
    })
    .execute();
  return token;
}

export interface ConsoleSession {
  tokenHash: string;
  operator: OperatorView;
  expiresAt: Date;
  idleExpiresAt: Date;
}

/**
 * The live session of `token`, its idle deadline moved forward; null when unknown, ended, idle
 * for 30 minutes, 12 hours old, or its operator is disabled.
 */
export async function touchSession(
  deps: Pick<Deps, 'db' | 'clock'>,
  token: string,
): Promise<ConsoleSession | null> {
  if (token.length < 20 || token.length > 100) return null;
  const now = deps.clock.now();
  const tokenHash = sha256(token);
  const session = await deps.db
    .updateTable('operator_sessions')
    .set({ last_seen_at: now })
    .where('token_hash', '=', tokenHash)
    .where('ended_at', 'is', null)
    .where('expires_at', '>', now)
    .where('last_seen_at', '>', new Date(now.getTime() - SESSION_IDLE_MS))
    .returning(['operator_id', 'expires_at'])
    .executeTakeFirst();
  if (!session) return null;
  const row = await deps.db
    .selectFrom('operators')
    .select(operatorColumns)
    .where('id', '=', session.operator_id)
    .where('disabled_at', 'is', null)
    .executeTakeFirst();
  if (!row) return null;
  return {
    tokenHash,
    operator: toOperatorView(row),
    expiresAt: session.expires_at,
    idleExpiresAt: new Date(Math.min(now.getTime() + SESSION_IDLE_MS, session.expires_at.getTime())),
  };
}

export async function endSessionByToken(deps: Pick<Deps, 'db' | 'clock'>, token: string): Promise<void> {
  await deps.db
    .updateTable('operator_sessions')
    .set({ ended_at: deps.clock.now() })
    .where('token_hash', '=', sha256(token))
    .where('ended_at', 'is', null)
    .execute();
}
