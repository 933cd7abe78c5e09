import type { Deps } from '../../deps.js';
import { tooManyRequests } from '../../lib/errors.js';
import { LIMITS } from '../../lib/limits.js';
import type { Limit } from '../../lib/throttle.js';

type TriesDeps = Pick<Deps, 'throttle'>;

/** Where tries are counted: per account and client address, and per account from everywhere. */
export interface PasswordTryLimits {
  /** Names the counters: `<prefix>:<account>:<address>:<window>` and `<prefix>:<account>:<window>`. */
  keyPrefix: string;
  fromClient: readonly Limit[];
  perAccount: readonly Limit[];
}

/** A listener's password (sign-in, a fresh proof); the console has its own (console/operators.ts). */
const LISTENER_PASSWORD_TRIES: PasswordTryLimits = {
  keyPrefix: 'password-tries',
  fromClient: LIMITS.passwordTriesFromClient,
  perAccount: LIMITS.passwordTriesPerAccount,
};

const tiers = (limits: readonly Limit[], key: string) =>
  limits.map((limit) => ({ key: `${key}:${limit.windowSeconds}`, limit }));

/**
 * Runs one password check under the password-tries limits (security.md). The try is counted
 * before the check, in one atomic step per window, so a burst of guesses at once is judged no
 * more often than the same guesses in a row. Only failures stay counted: a right password, or a
 * try refused by one window, gives back what it took from the others.
 *
 * Tries are counted per account and client address, in tiers whose waits grow (minutes, an hour,
 * a day), and per account from everywhere, which bounds a guesser with many addresses. A stranger
 * guessing from one address stays within their own tiers, so they cannot lock the owner out.
 * Windows are taken longest first, so a refusal names the longest wait that applies.
 */
export async function withPasswordTries<T>(
  deps: TriesDeps,
  username: string,
  clientAddress: string,
  check: () => Promise<T>,
  limits: PasswordTryLimits = LISTENER_PASSWORD_TRIES,
): Promise<T> {
  const windows = [
    ...tiers(limits.fromClient, `${limits.keyPrefix}:${username}:${clientAddress}`),
    ...tiers(limits.perAccount, `${limits.keyPrefix}:${username}`),
  ].sort((a, b) => b.limit.windowSeconds - a.limit.windowSeconds);
  const taken: string[] = [];
  const giveBack = () => Promise.all(taken.map((key) => deps.throttle.refund(key)));
  for (const { key, limit } of windows) {
    const take = await deps.throttle.take(key, limit);
    if (!take.allowed) {
      await giveBack();
      throw tooManyRequests(take.retryAfterSeconds, limit.message);
    }
    taken.push(key);
  }
  const result = await check();
  await giveBack();
  return result;
}
