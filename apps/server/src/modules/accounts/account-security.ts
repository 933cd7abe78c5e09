import { API_ERROR_CODES } from '@tunes/shared/error-codes';
import type { FastifyBaseLogger } from 'fastify';
import type { User } from '../../db/schema.js';
import type { Deps } from '../../deps.js';
import { badRequest } from '../../lib/errors.js';
import { languageOf } from '../../lib/message-language.js';
import { sendToAccount } from '../notifications/send-to-account.js';
import { accountMessages } from './messages.js';
import { checkOtp, codeRefusal, consumeOtp, type OtpCheck } from './otp.js';
import { withPasswordTries } from './password-tries.js';
import { hashPassword, verifyPassword } from './secrets.js';
import { revokeAllForUser } from './tokens.js';
import { getUser } from './users.js';

type SecurityDeps = Pick<Deps, 'db' | 'clock' | 'config' | 'throttle' | 'accessTokens' | 'revokedSessions'>;

/** Tells the account holder, on every channel they have, that something changed. */
async function notify(
  deps: SecurityDeps,
  user: User,
  subject: string,
  text: string,
  log?: FastifyBaseLogger,
) {
  if (user.primary_email)
    await sendToAccount(deps, user.id, { channel: 'email', to: user.primary_email, subject, text }, log);
  if (user.phone_number)
    await sendToAccount(deps, user.id, { channel: 'sms', to: user.phone_number, text }, log);
}

/** The current password, checked under the password-tries limits (a stolen token cannot guess it). */
async function proveByPassword(
  deps: SecurityDeps,
  user: User,
  password: string,
  clientAddress: string,
  field: 'CurrentPassword' | 'Password',
) {
  const wrong = () => badRequest('The password is not right.', field, API_ERROR_CODES.wrongPassword);
  if (!user.password_hash)
    throw badRequest('This account has no password; sign in with a code instead.', 'Password');
  await withPasswordTries(deps, user.username, clientAddress, async () => {
    if (!(await verifyPassword(password, user.password_hash))) throw wrong();
  });
}

/**
 * `POST /api/users/me/password` (product.md §14): with the current password, sets a new one;
 * every other signed-in device is signed out and the holder is told.
 */
export async function changePassword(
  deps: SecurityDeps,
  request: { userId: string; sessionId: string | undefined; clientAddress: string },
  currentPassword: string,
  newPassword: string,
  log?: FastifyBaseLogger,
): Promise<void> {
  const user = await getUser(deps.db, request.userId);
  await proveByPassword(deps, user, currentPassword, request.clientAddress, 'CurrentPassword');
  await deps.db
    .updateTable('users')
    .set({ password_hash: await hashPassword(newPassword), updated_at: deps.clock.now() })
    .where('id', '=', user.id)
    .execute();
  await revokeAllForUser(deps, user.id, request.sessionId);
  const lang = languageOf(user.language);
  await notify(
    deps,
    user,
    accountMessages.passwordChangedSubject(lang),
    accountMessages.passwordChanged(lang),
    log,
  );
}

/** A fresh proof for deleting the account: a code sent to its number or address, or its password. */
export async function proveFreshSignIn(
  deps: SecurityDeps,
  user: User,
  proof: { Otp?: string | undefined; Password?: string | undefined },
  clientAddress: string,
): Promise<void> {
  if (proof.Password !== undefined)
    return proveByPassword(deps, user, proof.Password, clientAddress, 'Password');
  const invalid = () => badRequest('The code is invalid or has expired.', 'Otp', API_ERROR_CODES.invalidCode);
  let refused: Extract<OtpCheck, { ok: false }> = { ok: false, reason: 'expired' };
  for (const target of [user.phone_number, user.primary_email]) {
    if (!target) continue;
    const check = await checkOtp(deps, target, proof.Otp ?? '');
    if (check.ok) {
      if (!(await consumeOtp(deps, check.id))) throw invalid();
      return;
    }
    if (check.reason === 'too-many-tries') refused = check;
  }
  throw codeRefusal(refused, invalid);
}
