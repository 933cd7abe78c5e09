import { CHANGE_ERRORS, dialCodeOfMsisdn } from '@tunes/shared/accounts';
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
import { findUserByMsisdn, getUser, isUniqueViolation } from './users.js';

type ChangeDeps = Pick<Deps, 'db' | 'clock' | 'throttle' | 'config'>;

const targetOf = (userId: string) => `phone-change:${userId}`;
/**
 * Starts a change of the account's phone number (security.md): the new number gets a code by SMS
 * and waits in `pending_phone`; nothing changes until the code is entered (`confirmPhoneChange`).
 * Like the e-mail change, the answer is the same whether or not another account has the number:
 * only the number's holder, with the code, learns that it is taken. Naming the current number
 * again withdraws a waiting change. Each start takes one of the account's hourly number changes
 * before any code is made, so a session cannot text codes to number after number.
 */
export async function requestPhoneChange(
  deps: ChangeDeps,
  user: User,
  msisdn: string,
  clientAddress: string,
  log?: FastifyBaseLogger,
): Promise<void> {
  if (msisdn === user.phone_number) {
    await cancelPhoneChange(deps, user);
    return;
  }
  await enforce(deps.throttle, `phone-changes:${user.id}`, LIMITS.phoneChangesPerUser);
  const code = await createOtp(deps, targetOf(user.id), {
    channel: 'sms',
    recipient: msisdn,
    clientAddress,
    sender: 'account',
  });
  await deps.db
    .updateTable('users')
    .set({ pending_phone: msisdn, updated_at: deps.clock.now() })
    .where('id', '=', user.id)
    .execute();
  await sendToAccount(
    deps,
    user.id,
    {
      channel: 'sms',
      to: msisdn,
      text: accountMessages.phoneChangeCode(languageOf(user.language), code),
      code,
    },
    log,
  );
}

/** Forgets a change the user no longer wants. */
export async function cancelPhoneChange(deps: Pick<Deps, 'db'>, user: User): Promise<void> {
  if (user.pending_phone === null) return;
  await deps.db.updateTable('users').set({ pending_phone: null }).where('id', '=', user.id).execute();
}

/**
 * Completes a change with the code sent to the new number: it becomes the account's number (and
 * the login name of a mobile account), and the old number is told — or the e-mail address, when
 * there was no number. A code is spent once, so of many confirmations at once one changes the
 * number; of two accounts taking one number at once, the unique index lets one win (409 for the other).
 */
export async function confirmPhoneChange(
  deps: ChangeDeps,
  userId: string,
  otp: string,
  log?: FastifyBaseLogger,
): Promise<void> {
  const invalid = () => badRequest('The code is invalid or has expired.', 'Otp', CHANGE_ERRORS.invalidCode);
  const user = await getUser(deps.db, userId);
  const newNumber = user.pending_phone;
  if (!newNumber) {
    throw badRequest('There is no number change waiting for a code.', 'Otp', CHANGE_ERRORS.noPendingChange);
  }
  const check = await checkOtp(deps, targetOf(userId), otp);
  if (!check.ok) throw codeRefusal(check, invalid);
  // The caller holds the code sent to this number, so telling them it is taken reveals nothing.
  const taken = () =>
    conflict('This phone number is already registered to another account.', CHANGE_ERRORS.phoneInUse);
  const holder = await findUserByMsisdn(deps.db, newNumber);
  if (holder && holder.id !== userId) throw taken();
  if (!(await consumeOtp(deps, check.id))) throw invalid();

  const signsInByNumber = user.username === user.phone_number;
  try {
    const changed = await deps.db
      .updateTable('users')
      .set({
        phone_number: newNumber,
        pending_phone: null,
        country_code: dialCodeOfMsisdn(newNumber),
        ...(signsInByNumber ? { username: newNumber } : {}),
        updated_at: deps.clock.now(),
      })
      .where('id', '=', userId)
      .where('pending_phone', '=', newNumber)
      .executeTakeFirst();
    // Another request withdrew or replaced the change between the read and this write.
    if (changed.numUpdatedRows === 0n) throw invalid();
  } catch (error) {
    if (isUniqueViolation(error)) throw taken();
    throw error;
  }

  const language = languageOf(user.language);
  const text = accountMessages.phoneChanged(language, newNumber.slice(-4));
  if (user.phone_number) {
    await sendToAccount(deps, user.id, { channel: 'sms', to: user.phone_number, text }, log);
  } else if (user.primary_email) {
    const subject = accountMessages.phoneChangedSubject(language);
    await sendToAccount(deps, user.id, { channel: 'email', to: user.primary_email, subject, text }, log);
  }
}
