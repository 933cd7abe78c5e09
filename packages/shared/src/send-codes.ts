/**
 * Why a code or link was not sent (security.md "Sends"), as the `reason` of the refusal beside
 * its `error` (`too_many_requests` for a 429, `bad_request` for a 400, as the API always
 * answered): each refusal has its own reason, so the site says which wall the listener met and
 * never that a code went out when none did. Schema-free, so the sign-in dialog reads it at
 * first paint.
 */
export const SEND_REFUSALS = {
  /** 429: a code went to this number or address moments ago (30 s); that code is good. */
  recentlySent: 'code_recently_sent',
  /** 429: this number or address has had its codes for the hour. */
  recipientLimit: 'recipient_limit',
  /** 429: numbers sharing this one's first digits have had their texts for the hour. */
  prefixLimit: 'prefix_limit',
  /** 429: the caller's network has had its hard hourly cap of messages, challenge or not. */
  networkLimit: 'network_limit',
  /** 429: the site has sent its hourly budget of text messages. */
  smsBudget: 'sms_budget',
  /**
   * 429: many codes were asked for from the caller's network this hour: the answer carries a
   * proof-of-work `challenge`; the same call with the solved `proof` sends the code.
   */
  challengeRequired: 'challenge_required',
  /** 400: the `proof` is not a solution of a challenge this site made (a new `challenge` comes with it). */
  challengeInvalid: 'challenge_invalid',
  /** 400: the `proof` solves a challenge that has expired (a new `challenge` comes with it). */
  challengeExpired: 'challenge_expired',
  /** 400: the `proof` was already used for a send (a new `challenge` comes with it). */
  challengeUsed: 'challenge_used',
} as const;

export type SendRefusal = (typeof SEND_REFUSALS)[keyof typeof SEND_REFUSALS];

/** A proof-of-work challenge as ALTCHA's widget takes it (`{ parameters, signature }`). */
export interface SendChallenge {
  parameters: Record<string, unknown>;
  signature: string;
}

/** Longest `proof` (ALTCHA's base64 payload, about 730 characters) a send accepts. */
export const SEND_PROOF_MAX_LENGTH = 2048;
