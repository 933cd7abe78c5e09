import { CODE_LOCKED_ERROR, OTP_RESULT, OTP_TTL_SECONDS } from '@tunes/shared/accounts';
import type { Deps } from '../../deps.js';
import { AppError } from '../../lib/errors.js';
import { LIMITS } from '../../lib/limits.js';
import { type SendRequest, takeSendBudget } from '../notifications/send-budget.js';
import { hmacHex, randomOtp, safeEqual } from './secrets.js';

type OtpDeps = Pick<Deps, 'db' | 'clock' | 'throttle' | 'config'>;

const codeHash = (deps: OtpDeps, target: string, code: string) =>
  hmacHex(deps.config.HMAC_SECRET, `otp:${target}:${code}`);

/** Where a code goes and who asked (`recipient`: the number or address the per-recipient limits count). */
export type OtpDelivery = SendRequest;

/**
 * Makes a new one-time code for `target` (a number, an address, or a purpose such as an e-mail
 * change), under the limits of security.md, each one atomic step of the throttle, all taken or
 * none: no second code to a recipient within 30 s, at most 5 an hour, then the send budgets of
 * `takeSendBudget` (prefix, the client's network with its challenge, the site; 429 with
 * Retry-After and the refusal's own code otherwise). Earlier codes of the target stop working.
 */
export async function createOtp(deps: OtpDeps, target: string, delivery: OtpDelivery): Promise<string> {
  await takeSendBudget(deps, delivery, [
    [`code-resend:${delivery.recipient}`, LIMITS.codeResend],
    [`codes:${delivery.recipient}`, LIMITS.codesPerRecipient],
  ]);

  const now = deps.clock.now();
  const code = randomOtp();
  // The earlier codes retired and the new one written in one statement: as atomic as a
  // transaction of the two, in one round trip instead of four (docs/performance.md).
  await deps.db
    .with('retired', (db) =>
      db
        .updateTable('otp_codes')
        .set({ consumed_at: now })
        .where('target', '=', target)
        .where('consumed_at', 'is', null),
    )
    .insertInto('otp_codes')
    .values({
      target,
      code_hash: codeHash(deps, target, code),
      expires_at: new Date(now.getTime() + OTP_TTL_SECONDS * 1000),
      created_at: now,
    })
    .execute();
  return code;
}

export type OtpCheck =
  | { ok: true; id: string; alreadyValidated: boolean }
  | { ok: false; reason: 'wrong' | 'expired' | 'too-many-tries' };

/**
 * Checks `code` against the target's live code. Every check takes a try from the code's
 * budget *before* comparing, in one atomic step, so a burst of guesses at once gets no more
 * judgements than the same guesses in a row; a right code gives its try back, so only wrong
 * ones use up the budget (security.md: at most 5 wrong tries per code).
 */
export async function checkOtp(deps: OtpDeps, target: string, code: string): Promise<OtpCheck> {
  const now = deps.clock.now();
  const live = await deps.db
    .selectFrom('otp_codes')
    .select(['id', 'code_hash', 'expires_at', 'validated_at'])
    .where('target', '=', target)
    .where('consumed_at', 'is', null)
    .orderBy('created_at', 'desc')
    .limit(1)
    .executeTakeFirst();
  if (!live || live.expires_at.getTime() <= now.getTime()) return { ok: false, reason: 'expired' };

  const triesKey = `code-tries:${live.id}`;
  const tried = await deps.throttle.take(triesKey, LIMITS.codeTries);
  if (!tried.allowed) return { ok: false, reason: 'too-many-tries' };
  if (!safeEqual(live.code_hash, codeHash(deps, target, code))) return { ok: false, reason: 'wrong' };
  await deps.throttle.refund(triesKey);
  return { ok: true, id: live.id, alreadyValidated: live.validated_at !== null };
}

/** Marks a code validated (by `validateotp`); it stays usable for registration and sign-in. */
export async function markOtpValidated(deps: OtpDeps, id: string): Promise<void> {
  await deps.db
    .updateTable('otp_codes')
    .set({ validated_at: deps.clock.now() })
    .where('id', '=', id)
    .where('validated_at', 'is', null)
    .execute();
}

/** Spends a code; false when another request spent it first. */
export async function consumeOtp(deps: OtpDeps, id: string): Promise<boolean> {
  const spent = await deps.db
    .updateTable('otp_codes')
    .set({ consumed_at: deps.clock.now() })
    .where('id', '=', id)
    .where('consumed_at', 'is', null)
    .executeTakeFirst();
  return spent.numUpdatedRows > 0n;
}

/** The `error` answer of validateotp for a failed check (product.md §5). */
export function otpResultCode(check: OtpCheck): string | null {
  if (check.ok) return check.alreadyValidated ? OTP_RESULT.alreadyValidated : null;
  if (check.reason === 'expired') return OTP_RESULT.expired;
  if (check.reason === 'too-many-tries') return OTP_RESULT.tooManyTries;
  return OTP_RESULT.wrongCode;
}

/**
 * Why a code was refused, as an error to throw: a code locked by too many wrong tries is named
 * as such (`code_locked`, the same status as `invalid`), so the user is offered a new code
 * instead of being told that the right one is wrong.
 */
export function codeRefusal(check: Extract<OtpCheck, { ok: false }>, invalid: () => AppError): AppError {
  const refused = invalid();
  if (check.reason !== 'too-many-tries') return refused;
  const message = 'Too many wrong codes: this code is locked. Ask for a new one.';
  const extra =
    'error_description' in refused.extra ? { ...refused.extra, error_description: message } : refused.extra;
  return new AppError(refused.statusCode, CODE_LOCKED_ERROR, message, extra);
}
