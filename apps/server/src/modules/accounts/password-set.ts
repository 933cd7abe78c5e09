import { API_ERROR_CODES } from '@tunes/shared/error-codes';
import type { FastifyBaseLogger } from 'fastify';
import type { Deps } from '../../deps.js';
import { conflict } from '../../lib/errors.js';
import { type Lang, languageOf } from '../../lib/message-language.js';
import { sendToAccount } from '../notifications/send-to-account.js';
import { proveFreshSignIn } from './account-security.js';
import { hashPassword } from './secrets.js';
import { getUser } from './users.js';

type SetPasswordDeps = Pick<
  Deps,
  'db' | 'clock' | 'config' | 'throttle' | 'accessTokens' | 'revokedSessions'
>;

const passwordSetTexts = {
  subject: (lang: Lang) =>
    lang === 'mn' ? 'Tunes нууц үг үүсгэлээ' : 'A password was set on your Tunes account',
  text: (lang: Lang) =>
    lang === 'mn'
      ? 'Таны Tunes бүртгэлд нууц үг үүсгэлээ. Одоо утасны дугаар эсвэл имэйл болон нууц үгээрээ нэвтэрч болно. Хэрэв та үүнийг хийгээгүй бол бидэнтэй даруй холбогдоно уу.'
      : 'A password was set on your Tunes account. You can now sign in with your number or e-mail and this password. If this was not you, contact us at once.',
};

const alreadySet = () =>
  conflict(
    'This account has a password already; change it with the current one.',
    API_ERROR_CODES.passwordExists,
  );

/**
 * `POST /api/users/me/password/set` (issue 37): a first password for an account without one (a
 * phone account), proven by a fresh code to its number or address, so a borrowed session alone
 * cannot add a way in. The spec's rules (at least 6 characters) are the request schema's. Of
 * several at once one sets it; the holder is told on every channel they have.
 */
export async function setFirstPassword(
  deps: SetPasswordDeps,
  request: { userId: string; clientAddress: string },
  otp: string,
  newPassword: string,
  log?: FastifyBaseLogger,
): Promise<void> {
  const user = await getUser(deps.db, request.userId);
  if (user.password_hash) throw alreadySet();
  await proveFreshSignIn(deps, user, { Otp: otp }, request.clientAddress);
  const hash = await hashPassword(newPassword);
  const set = await deps.db
    .updateTable('users')
    .set({ password_hash: hash, updated_at: deps.clock.now() })
    .where('id', '=', user.id)
    .where('password_hash', 'is', null)
    .executeTakeFirst();
  if (Number(set.numUpdatedRows) === 0) throw alreadySet();
  const lang = languageOf(user.language);
  if (user.primary_email) {
    await sendToAccount(
      deps,
      user.id,
      {
        channel: 'email',
        to: user.primary_email,
        subject: passwordSetTexts.subject(lang),
        text: passwordSetTexts.text(lang),
      },
      log,
    );
  }
  if (user.phone_number) {
    await sendToAccount(
      deps,
      user.id,
      { channel: 'sms', to: user.phone_number, text: passwordSetTexts.text(lang) },
      log,
    );
  }
}
