import { OTP_RESULT } from '@tunes/shared/account-codes';
import { apiRequest } from '@/lib/api-client';
import { type CallErrors, isApiError } from '@/lib/api-error';

export type OtpTarget = { msisdn: string } | { email: string };

export interface CodeRequested {
  /** Seconds before another code may be asked for. */
  resendIn: number;
  /** A code was sent moments ago (429): the earlier one is still good (product.md §7). */
  alreadySent: boolean;
}

/**
 * `GET /api/users/requestotp`: SMS for a number, e-mail (language 'en') for an address (product.md §7).
 * A 429 means a code was already sent: the client shows 'OTP already sent' and the flow moves
 * on to the code step with the server's wait; any other failure is toasted (product.md §8).
 */
export async function requestOtp(
  target: OtpTarget,
  language: string,
  { resend = false, resendIn }: { resend?: boolean; resendIn: number },
): Promise<CodeRequested> {
  const query =
    'email' in target
      ? { email: target.email, otpprovider: 'email', language: 'en' }
      : { msisdn: target.msisdn, otpprovider: 'sms', language };
  try {
    await apiRequest('/api/users/requestotp', {
      query,
      errors: {
        messages: {
          429: 'accounts:messages.otp-already-sent',
          other: resend ? 'accounts:messages.otp-resend-failed' : 'accounts:messages.otp-request-failed',
        },
        toast: 'message',
      },
    });
    return { resendIn, alreadySent: false };
  } catch (error) {
    if (isApiError(error, { status: 429 }))
      return { resendIn: error.retryAfter ?? resendIn, alreadySent: true };
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
