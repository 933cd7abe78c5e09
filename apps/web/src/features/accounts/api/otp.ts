import { OTP_RESULT } from '@tunes/shared/account-codes';
import { apiRequest } from '@/lib/api-client';
import type { CallErrors } from '@/lib/api-error';
import { isRecentlySent, SEND_REFUSAL_MESSAGES, SEND_REFUSAL_TOASTS } from './send-refusals';

export type OtpTarget = { msisdn: string } | { email: string };

export interface CodeRequested {
  /** Seconds before another code may be asked for. */
  resendIn: number;
  /** A code was sent moments ago (429): the earlier one is still good (product.md §7). */
  alreadySent: boolean;
}

/**
 * `GET /api/users/requestotp`: SMS for a number, e-mail for an address (product.md §7), in the
 * site's language (product.md fixed 'en' for e-mail; issue 37): a number or address no account
 * holds yet gets it in that language, an account's in the account's own.
 * A code sent moments ago (429 `code_recently_sent`) is 'OTP already sent': the flow moves on to
 * the code step with the server's wait. Any other refusal says which limit refused and that no code
 * went out, toasted (product.md §8, security.md "Sends"); one that asks for a proof-of-work
 * challenge carries it (`challengeOf`): solved, the same call with its `proof` sends the code.
 */
export async function requestOtp(
  target: OtpTarget,
  language: string,
  { resend = false, resendIn, proof }: { resend?: boolean; resendIn: number; proof?: string },
): Promise<CodeRequested> {
  const query =
    'email' in target
      ? { email: target.email, otpprovider: 'email', language, proof }
      : { msisdn: target.msisdn, otpprovider: 'sms', language, proof };
  const failed = resend ? 'accounts:messages.otp-resend-failed' : 'accounts:messages.otp-request-failed';
  try {
    await apiRequest('/api/users/requestotp', {
      query,
      errors: {
        messages: { ...SEND_REFUSAL_MESSAGES, other: failed },
        // Every refusal is shown once, in the form that asked (issue 37: not toasted as well);
        // only 'OTP already sent' is toasted, as the flow moves on to the code without an error.
        toast: SEND_REFUSAL_TOASTS,
      },
    });
    return { resendIn, alreadySent: false };
  } catch (error) {
    if (isRecentlySent(error)) return { resendIn: error.retryAfter ?? resendIn, alreadySent: true };
    throw error;
  }
}

/**
 * What a code check found: good, wrong, or past use (expired, or locked after 5 wrong tries), when
 * only a new code helps.
 */
export type OtpVerdict = 'valid' | 'wrong' | 'expired' | 'locked';

/** `GET /api/users/validateotp`: valid when the error field is null or "610" (product.md §5). */
export async function validateOtp(target: OtpTarget, otp: string, errors: CallErrors): Promise<OtpVerdict> {
  const { error } = await apiRequest<{ error: string | null }>('/api/users/validateotp', {
    query: { ...target, otp },
    errors,
  });
  if (error === null || error === OTP_RESULT.alreadyValidated) return 'valid';
  if (error === OTP_RESULT.tooManyTries) return 'locked';
  if (error === OTP_RESULT.expired) return 'expired';
  return 'wrong';
}

/** What the user reads for a refused code: a spent code (expired, locked) asks for a new one. */
export const OTP_VERDICT_MESSAGES = {
  wrong: 'messages.invalid-code',
  expired: 'messages.code-expired',
  locked: 'messages.code-locked',
} as const;

/** The e-mail sign-up's code check (product.md §8 validateOTP: 409 'email already in use', toasted). */
export function verifyEmailCode(email: string, otp: string): Promise<OtpVerdict> {
  return validateOtp({ email }, otp, {
    messages: {
      409: 'accounts:messages.email-in-use',
      other: 'accounts:messages.email-verification-failed',
    },
    toast: { 409: 'accounts:messages.email-in-use' },
  });
}
