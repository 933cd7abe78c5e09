import { PASSWORD_RESET_TTL_SECONDS } from '@tunes/shared/accounts';
import type { FastifyBaseLogger } from 'fastify';
import type { Deps } from '../../deps.js';
import { badRequest } from '../../lib/errors.js';
import { LIMITS } from '../../lib/limits.js';
import { languageOf } from '../../lib/message-language.js';
import { enforce } from '../../lib/throttle.js';
import { takeSendBudget } from '../notifications/send-budget.js';
import { sendToAccount } from '../notifications/send-to-account.js';
import { accountMessages } from './messages.js';
import { hashPassword, randomToken, sha256 } from './secrets.js';
import { revokeAllForUser } from './tokens.js';

type ResetDeps = Pick<Deps, 'db' | 'clock' | 'config' | 'throttle' | 'accessTokens' | 'revokedSessions'>;

/**
 * E-mails a single-use link to `/reset-password?token=…` when an account has this address, in
 * the account's language. The caller answers the same either way, so the answer does not tell
 * who has an account.
 */
export async function sendPasswordResetLink(
  deps: ResetDeps,
  email: string,
  clientAddress: string,
  log?: FastifyBaseLogger,
): Promise<void> {
  // Taken whether or not the address has an account, so the limits reveal nothing either. A link
  // goes only to an account's own address, so it counts toward the hard cap, with no challenge.
  await takeSendBudget(deps, { channel: 'email', recipient: email, clientAddress, sender: 'account' }, [
    [`reset-links:${email}`, LIMITS.resetLinksPerRecipient],
  ]);
  const user = await deps.db
    .selectFrom('users')
    .select(['id', 'language'])
    .where('primary_email', '=', email)
    .executeTakeFirst();
  if (!user) return;
  const language = languageOf(user.language);
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
  await sendToAccount(
    deps,
    user.id,
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

/**
 * Sets a new password with a reset link's token; the token works once, before it expires.
 * The cheap checks come first (the client's failed tries, then the token's lookup by its hash);
 * the password is hashed only for a live token, so random tokens cost the server almost nothing.
 */
export async function resetPassword(
  deps: ResetDeps,
  token: string,
  password: string,
  clientAddress: string,
): Promise<{ email: string | null }> {
  const invalid = () => badRequest('This reset link is invalid, expired or already used.', 'Token');
  const triesKey = `reset-token-tries:${clientAddress}`;
  await enforce(deps.throttle, triesKey, LIMITS.resetTokenTries);
  const tokenHash = sha256(token);
  const live = await deps.db
    .selectFrom('password_resets')
    .select('user_id')
    .where('token_hash', '=', tokenHash)
    .where('used_at', 'is', null)
    .where('expires_at', '>', deps.clock.now())
    .executeTakeFirst();
  if (!live) throw invalid();

  const passwordHash = await hashPassword(password);
  const now = deps.clock.now();
  const changed = await deps.db.transaction().execute(async (trx) => {
    // Spent here, atomically: of two requests with one token, one changes the password.
    const spent = await trx
      .updateTable('password_resets')
      .set({ used_at: now })
      .where('token_hash', '=', tokenHash)
      .where('used_at', 'is', null)
      .where('expires_at', '>', now)
      .returning('user_id')
      .executeTakeFirst();
    if (!spent) return null;
    const user = await trx
      .updateTable('users')
      .set({ password_hash: passwordHash, updated_at: now })
      .where('id', '=', spent.user_id)
      .returning('primary_email')
      .executeTakeFirst();
    return { userId: spent.user_id, email: user?.primary_email ?? null };
  });
  if (!changed) throw invalid();
  // Only failed tries count: a working link gives its try back.
  await deps.throttle.refund(triesKey);
  await revokeAllForUser(deps, changed.userId);
  // The link's holder reads that mailbox already: the address fills the sign-in form next.
  return { email: changed.email };
}
