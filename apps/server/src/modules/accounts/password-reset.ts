import { PASSWORD_RESET_TTL_SECONDS } from '@tunes/shared/accounts';
import type { FastifyBaseLogger } from 'fastify';
import type { Deps } from '../../deps.js';
import { badRequest } from '../../lib/errors.js';
import { sendMessage } from '../notifications/outbox.js';
import { accountMessages } from './messages.js';
import { hashPassword, randomToken, sha256 } from './secrets.js';
import { revokeAllForUser } from './tokens.js';

type ResetDeps = Pick<Deps, 'db' | 'clock' | 'config'>;

/**
 * E-mails a single-use link to `/reset-password?token=…` when an account has this address.
 * The caller answers the same either way, so the answer does not tell who has an account.
 */
export async function sendPasswordResetLink(
  deps: ResetDeps,
  email: string,
  language: 'en' | 'mn',
  log?: FastifyBaseLogger,
): Promise<void> {
  const user = await deps.db
    .selectFrom('users')
    .select('id')
    .where('primary_email', '=', email)
    .executeTakeFirst();
  if (!user) return;
  const now = deps.clock.now();
  const token = randomToken();
  await deps.db
    .insertInto('password_resets')
    .values({
      token_hash: sha256(token),
      user_id: user.id,
      expires_at: new Date(now.getTime() + PASSWORD_RESET_TTL_SECONDS * 1000),
      created_at: now,
    })
    .execute();
  const link = `${deps.config.PUBLIC_URL}/reset-password?token=${token}`;
  await sendMessage(
    deps,
    {
      channel: 'email',
      to: email,
      subject: accountMessages.resetSubject(language),
      text: accountMessages.reset(language, link),
      link,
    },
    log,
  );
}

/** Sets a new password with a reset link's token; the token works once, before it expires. */
export async function resetPassword(deps: ResetDeps, token: string, password: string): Promise<void> {
  const now = deps.clock.now();
  const passwordHash = await hashPassword(password);
  const userId = await deps.db.transaction().execute(async (trx) => {
    const spent = await trx
      .updateTable('password_resets')
      .set({ used_at: now })
      .where('token_hash', '=', sha256(token))
      .where('used_at', 'is', null)
      .where('expires_at', '>', now)
      .returning('user_id')
      .executeTakeFirst();
    if (!spent) return null;
    await trx
      .updateTable('users')
      .set({ password_hash: passwordHash, updated_at: now })
      .where('id', '=', spent.user_id)
      .execute();
    return spent.user_id;
  });
  if (!userId) throw badRequest('This reset link is invalid, expired or already used.', 'Token');
  await revokeAllForUser(deps, userId);
}
