import {
  OTP_HOURLY_CAP,
  OTP_MAX_WRONG_TRIES,
  OTP_RESEND_SECONDS,
  OTP_RESULT,
  OTP_TTL_SECONDS,
} from '@tunes/shared/accounts';
import { sql } from 'kysely';
import type { Deps } from '../../deps.js';
import { tooManyRequests } from '../../lib/errors.js';
import { hmacHex, randomOtp, safeEqual } from './secrets.js';

type OtpDeps = Pick<Deps, 'db' | 'clock' | 'rateLimiter' | 'config'>;

const HOUR_SECONDS = 60 * 60;

const codeHash = (deps: OtpDeps, target: string, code: string) =>
  hmacHex(deps.config.HMAC_SECRET, `otp:${target}:${code}`);

/**
 * Makes a new one-time code for a number or address, enforcing DESIGN §7: not again within
 * 30 s of the last one, and at most OTP_HOURLY_CAP per hour (429 with Retry-After otherwise).
 * Earlier codes of the target stop working.
 */
export async function createOtp(deps: OtpDeps, target: string): Promise<string> {
  const now = deps.clock.now();
  const last = await deps.db
    .selectFrom('otp_codes')
    .select('created_at')
    .where('target', '=', target)
    .orderBy('created_at', 'desc')
    .limit(1)
    .executeTakeFirst();
  if (last) {
    const waitMs = last.created_at.getTime() + OTP_RESEND_SECONDS * 1000 - now.getTime();
    if (waitMs > 0)
      throw tooManyRequests(waitMs / 1000, 'A code was sent moments ago. Wait before asking again.');
  }
  const hourly = await deps.rateLimiter.hit(`otp:hour:${target}`, HOUR_SECONDS);
  if (hourly.count > OTP_HOURLY_CAP) {
    throw tooManyRequests(hourly.retryAfterSeconds, 'Too many codes were requested. Try again later.');
  }

  const code = randomOtp();
  await deps.db.transaction().execute(async (trx) => {
    await trx
      .updateTable('otp_codes')
      .set({ consumed_at: now })
      .where('target', '=', target)
      .where('consumed_at', 'is', null)
      .execute();
    await trx
      .insertInto('otp_codes')
      .values({
        target,
        code_hash: codeHash(deps, target, code),
        expires_at: new Date(now.getTime() + OTP_TTL_SECONDS * 1000),
        created_at: now,
      })
      .execute();
  });
  return code;
}

export type OtpCheck =
  | { ok: true; id: string; alreadyValidated: boolean }
  | { ok: false; reason: 'wrong' | 'expired' | 'too-many-tries' };

/**
 * Checks `code` against the target's live code. A wrong guess counts against the code; after
 * OTP_MAX_WRONG_TRIES wrong guesses even the right code fails.
 */
export async function checkOtp(deps: OtpDeps, target: string, code: string): Promise<OtpCheck> {
  const now = deps.clock.now();
  const live = await deps.db
    .selectFrom('otp_codes')
    .select(['id', 'code_hash', 'wrong_tries', 'expires_at', 'validated_at'])
    .where('target', '=', target)
    .where('consumed_at', 'is', null)
    .orderBy('created_at', 'desc')
    .limit(1)
    .executeTakeFirst();
  if (!live || live.expires_at.getTime() <= now.getTime()) return { ok: false, reason: 'expired' };
  if (live.wrong_tries >= OTP_MAX_WRONG_TRIES) return { ok: false, reason: 'too-many-tries' };

  if (!safeEqual(live.code_hash, codeHash(deps, target, code))) {
    const counted = await deps.db
      .updateTable('otp_codes')
      .set({ wrong_tries: sql`wrong_tries + 1` })
      .where('id', '=', live.id)
      .where('wrong_tries', '<', OTP_MAX_WRONG_TRIES)
      .returning('wrong_tries')
      .executeTakeFirst();
    return { ok: false, reason: counted ? 'wrong' : 'too-many-tries' };
  }
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

/** The `error` answer of validateotp for a failed check (spec §5). */
export function otpResultCode(check: OtpCheck): string | null {
  if (check.ok) return check.alreadyValidated ? OTP_RESULT.alreadyValidated : null;
  if (check.reason === 'expired') return OTP_RESULT.expired;
  if (check.reason === 'too-many-tries') return OTP_RESULT.tooManyTries;
  return OTP_RESULT.wrongCode;
}
