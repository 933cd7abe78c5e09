import { HMAC_TOKEN_TTL_SECONDS } from '@tunes/shared/accounts';
import type { Deps } from '../../deps.js';
import { hmacHex, safeEqual } from './secrets.js';

/** `<unix seconds>.<hex HMAC-SHA256(HMAC_SECRET, "<userId>.<unix seconds>")>` (product.md §11). */
export function mintHmacToken(secret: string, userId: string, now: Date): string {
  const seconds = Math.floor(now.getTime() / 1000);
  return `${seconds}.${hmacHex(secret, `${userId}.${seconds}`)}`;
}

/** Allowed clock difference for a token minted slightly "in the future" by another machine. */
const FUTURE_SKEW_SECONDS = 30;

/**
 * Whether `token` is a valid, unexpired silent-login token for `userId` not used before; a
 * valid token is spent by this call, so a second use fails.
 */
export async function spendHmacToken(
  deps: Pick<Deps, 'db' | 'clock' | 'config'>,
  userId: string,
  token: string,
): Promise<boolean> {
  const match = /^(\d{1,12})\.([0-9a-f]{64})$/.exec(token.trim());
  if (!match) return false;
  const [, secondsText = '', signature = ''] = match;
  const seconds = Number(secondsText);
  const nowSeconds = deps.clock.now().getTime() / 1000;
  if (seconds > nowSeconds + FUTURE_SKEW_SECONDS || nowSeconds - seconds > HMAC_TOKEN_TTL_SECONDS)
    return false;
  if (!safeEqual(signature, hmacHex(deps.config.HMAC_SECRET, `${userId}.${secondsText}`))) return false;
  const spent = await deps.db
    .insertInto('spent_hmac_tokens')
    .values({ signature, user_id: userId, spent_at: deps.clock.now() })
    .onConflict((oc) => oc.column('signature').doNothing())
    .returning('signature')
    .executeTakeFirst();
  return spent !== undefined;
}
