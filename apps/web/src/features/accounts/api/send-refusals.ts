import { SEND_REFUSALS, type SendChallenge } from '@tunes/shared/send-codes';
import { type ApiError, type ErrorMessages, isApiError, type ToastMessages } from '@/lib/api-error';

/**
 * What the listener reads when a code is not sent (security.md "Sends"), one text per refusal:
 * only "a code went out moments ago" says a code was sent, because only then was one.
 */
export const SEND_REFUSAL_MESSAGES = {
  [SEND_REFUSALS.recentlySent]: 'accounts:messages.otp-already-sent',
  [SEND_REFUSALS.recipientLimit]: 'accounts:send.recipient-limit',
  [SEND_REFUSALS.prefixLimit]: 'accounts:send.prefix-limit',
  [SEND_REFUSALS.networkLimit]: 'accounts:send.network-limit',
  [SEND_REFUSALS.smsBudget]: 'accounts:send.sms-budget',
  [SEND_REFUSALS.challengeRequired]: 'accounts:send.challenge-required',
  [SEND_REFUSALS.challengeInvalid]: 'accounts:send.challenge-invalid',
  [SEND_REFUSALS.challengeExpired]: 'accounts:send.challenge-expired',
  [SEND_REFUSALS.challengeUsed]: 'accounts:send.challenge-used',
} as const satisfies ErrorMessages;

/** Refusals that come with a challenge: the dialog shows it in place, no toast. */
const CHALLENGE_REASONS: readonly string[] = [
  SEND_REFUSALS.challengeRequired,
  SEND_REFUSALS.challengeInvalid,
  SEND_REFUSALS.challengeExpired,
  SEND_REFUSALS.challengeUsed,
];

/**
 * Toasts of a send's refusals: only "a code went out moments ago", which is no error (the flow
 * moves on to the code); every other refusal is shown once, in the form that asked.
 */
export const SEND_REFUSAL_TOASTS: ToastMessages = {
  [SEND_REFUSALS.recentlySent]: SEND_REFUSAL_MESSAGES[SEND_REFUSALS.recentlySent],
};

/** The proof-of-work challenge a refused send carries (to solve, then send again), if any. */
export function challengeOf(error: unknown): SendChallenge | null {
  if (!isApiError(error) || !CHALLENGE_REASONS.includes(error.reason ?? '')) return null;
  const { challenge } = error.body;
  return typeof challenge === 'object' && challenge !== null ? (challenge as SendChallenge) : null;
}

/** Whether the refusal only asks for a challenge (not a failed answer to one). */
export const isChallengeRequest = (error: unknown) =>
  isApiError(error) && error.reason === SEND_REFUSALS.challengeRequired;

/** Whether the refusal says a code went to the recipient moments ago (that code is good). */
export const isRecentlySent = (error: unknown): error is ApiError =>
  isApiError(error, { status: 429 }) && error.reason === SEND_REFUSALS.recentlySent;
