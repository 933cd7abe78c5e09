import { OTP_RESULT } from '@tunes/shared/accounts';
import { ApiError, apiRequest } from '@/lib/api-client';

export type OtpTarget = { msisdn: string } | { email: string };

/** `GET /api/users/requestotp`: SMS for a number, e-mail (language 'en') for an address (product.md §7). */
export function requestOtp(target: OtpTarget, language: string): Promise<unknown> {
  const query =
    'email' in target
      ? { email: target.email, otpprovider: 'email', language: 'en' }
      : { msisdn: target.msisdn, otpprovider: 'sms', language };
  return apiRequest('/api/users/requestotp', { query });
}

/** Whether the answer of `requestOtp` failing means "a code was already sent" (product.md §7: 429). */
export function isAlreadySent(error: unknown): boolean {
  return error instanceof ApiError && error.status === 429;
}

/** Seconds the server asks to wait before another code, from a 429 answer. */
export function retryAfterSeconds(error: unknown): number | undefined {
  if (!(error instanceof ApiError)) return undefined;
  const value = Number(error.body.retryAfter);
  return Number.isFinite(value) && value > 0 ? value : undefined;
}

/** `GET /api/users/validateotp`: true when the error field is null or "610" (product.md §5). */
export async function validateOtp(target: OtpTarget, otp: string): Promise<boolean> {
  const { error } = await apiRequest<{ error: string | null }>('/api/users/validateotp', {
    query: { ...target, otp },
  });
  return error === null || error === OTP_RESULT.alreadyValidated;
}
