import { CHANGE_ERRORS } from '@tunes/shared/accounts';
import type { FastifyBaseLogger } from 'fastify';
import type { User } from '../../db/schema.js';
import type { Deps } from '../../deps.js';
import { badRequest, conflict } from '../../lib/errors.js';
import { LIMITS } from '../../lib/limits.js';
import { languageOf } from '../../lib/message-language.js';
import { enforce } from '../../lib/throttle.js';
import { sendToAccount } from '../notifications/send-to-account.js';
import { accountMessages } from './messages.js';
import { checkOtp, codeRefusal, consumeOtp, createOtp } from './otp.js';
import { emailInUse, getUser, isUniqueViolation } from './users.js';

type ChangeDeps = Pick<Deps, 'db' | 'clock' | 'throttle' | 'config'>;

const targetOf = (userId: string) => `email-change:${userId}`;
/**
 * Starts a change of the profile's e-mail address (security.md): the new address gets a code and
 * waits in `pending_email`; nothing changes until the code is entered (`confirmEmailChange`).
 * The answer is the same whether or not another account has the address, so it reveals nothing:
 * only the address's owner, holding the code, learns that it is taken. Each start takes one of the
 * account's hourly address changes before any code is made (LIMITS.emailChangesPerUser).
 */
export async function requestEmailChange(
  deps: ChangeDeps,
  user: User,
  newEmail: string,
  clientAddress: string,
  log?: FastifyBaseLogger,
): Promise<void> {
  await enforce(deps.throttle, `email-changes:${user.id}`, LIMITS.emailChangesPerUser);
  const language = languageOf(user.language);
  const code = await createOtp(deps, targetOf(user.id), {
    channel: 'email',
    recipient: newEmail,
    clientAddress,
    sender: 'account',
  });
  await deps.db
    .updateTable('users')
    .set({ pending_email: newEmail, updated_at: deps.clock.now() })
    .where('id', '=', user.id)
    .execute();
  await sendToAccount(
    deps,
    user.id,
    {
      channel: 'email',
      to: newEmail,
      subject: accountMessages.emailChangeSubject(language),
      text: accountMessages.emailChangeCode(language, code),
      code,
    },
    log,
  );
}

/** Forgets a change the user no longer wants (they saved their current address again). */
export async function cancelEmailChange(deps: ChangeDeps, user: User): Promise<void> {
  if (user.pending_email === null) return;
  await deps.db.updateTable('users').set({ pending_email: null }).where('id', '=', user.id).execute();
}

/**
 * Completes a change with the code sent to the new address: the address becomes the profile's
 * (and the login name of an e-mail account), and the old address is told.
 */
export async function confirmEmailChange(
  deps: ChangeDeps,
  userId: string,
  otp: string,
  log?: FastifyBaseLogger,
): Promise<void> {
  const invalid = () => badRequest('The code is invalid or has expired.', 'Otp', CHANGE_ERRORS.invalidCode);
  const user = await getUser(deps.db, userId);
  const newEmail = user.pending_email;
  if (!newEmail)
    throw badRequest('There is no e-mail change waiting for a code.', 'Otp', CHANGE_ERRORS.noPendingChange);
  const check = await checkOtp(deps, targetOf(userId), otp);
  if (!check.ok) throw codeRefusal(check, invalid);
  // The caller holds the code sent to this address, so telling them it is taken reveals nothing.
  const taken = () =>
    conflict('This email address is already associated with another account.', CHANGE_ERRORS.emailInUse);
  if (await emailInUse(deps.db, newEmail, userId)) throw taken();
  if (!(await consumeOtp(deps, check.id))) throw invalid();

  const signsInByEmail = user.username === user.primary_email;
  try {
    await deps.db
      .updateTable('users')
      .set({
        primary_email: newEmail,
        pending_email: null,
        ...(signsInByEmail ? { username: newEmail } : {}),
        updated_at: deps.clock.now(),
      })
      .where('id', '=', userId)
      .execute();
  } catch (error) {
    if (isUniqueViolation(error)) throw taken();
    throw error;
  }
  if (user.primary_email) {
    const language = languageOf(user.language);
    await sendToAccount(
      deps,
      user.id,
      {
        channel: 'email',
        to: user.primary_email,
        subject: accountMessages.emailChangedSubject(language),
        text: accountMessages.emailChanged(language, newEmail),
      },
      log,
    );
  }
}
