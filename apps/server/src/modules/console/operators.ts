import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.js';
import type { Deps } from '../../deps.js';
import { AppError, badRequest, conflict, notFound } from '../../lib/errors.js';
import { LIMITS } from '../../lib/limits.js';
import { qrDataUrl } from '../../lib/qr-image.js';
import { enforce } from '../../lib/throttle.js';
import { type PasswordTryLimits, withPasswordTries } from '../accounts/password-tries.js';
import { hashPassword, randomToken, sha256, verifyPassword } from '../accounts/secrets.js';
import { audit } from './audit.js';
import type { OperatorRole } from './tables.js';
import { newTotpSecret, totpUri, verifyTotp } from './totp.js';
import './tables.js';

export const SETUP_LINK_TTL_MS = 24 * 60 * 60 * 1000;
export const SESSION_IDLE_MS = 30 * 60 * 1000;
export const SESSION_MAX_MS = 12 * 60 * 60 * 1000;
export const PASSWORD_MIN_LENGTH = 12;
/** Failed sign-ins count per operator and client address, and per operator from everywhere. */
const SIGN_IN_TRIES: PasswordTryLimits = {
  keyPrefix: 'console-sign-in',
  fromClient: LIMITS.consoleSignInTriesFromClient,
  perAccount: LIMITS.consoleSignInTriesPerAccount,
};

type Db = Kysely<Database>;
type ConsoleDeps = Pick<Deps, 'db' | 'clock' | 'throttle'>;

export interface OperatorView {
  id: string;
  email: string;
  role: OperatorRole;
  disabled: boolean;
  setUp: boolean;
  createdAt: string;
  lastSignInAt: string | null;
}

const operatorColumns = [
  'id',
  'email',
  'role',
  'disabled_at',
  'password_hash',
  'totp_secret',
  'created_at',
  'last_sign_in_at',
] as const;

type OperatorRow = {
  id: string;
  email: string;
  role: OperatorRole;
  disabled_at: Date | null;
  password_hash: string | null;
  totp_secret: string | null;
  created_at: Date;
  last_sign_in_at: Date | null;
};

export function toOperatorView(row: OperatorRow): OperatorView {
  return {
    id: row.id,
    email: row.email,
    role: row.role,
    disabled: row.disabled_at !== null,
    setUp: row.password_hash !== null && row.totp_secret !== null,
    createdAt: row.created_at.toISOString(),
    lastSignInAt: row.last_sign_in_at?.toISOString() ?? null,
  };
}

export async function listOperators(db: Db): Promise<OperatorView[]> {
  const rows = await db.selectFrom('operators').select(operatorColumns).orderBy('email').execute();
  return rows.map(toOperatorView);
}

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
    if (!row) throw conflict(`An operator with the e-mail ${email} already exists.`, 'operator_exists');
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

const setupLinkInvalid = () =>
  new AppError(
    404,
    'setup_link_invalid',
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
    throw badRequest('The code from the authenticator app is not right.', 'code', 'invalid_totp');
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

const invalidCredentials = () =>
  new AppError(401, 'invalid_credentials', 'The e-mail, password or authenticator code is not right.');

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

async function openSession(trx: Db, operatorId: string, now: Date): Promise<string> {
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

/** An admin changes another operator's role or disables them (which ends their sessions). */
export async function updateOperator(
  deps: Pick<Deps, 'db' | 'clock'>,
  actorId: string,
  id: string,
  change: { role?: OperatorRole | undefined; disabled?: boolean | undefined },
): Promise<OperatorView> {
  if (id === actorId) {
    throw conflict('You cannot change your own role or disable yourself.', 'cannot_change_self');
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
