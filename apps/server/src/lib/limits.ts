import {
  OTP_HOURLY_CAP,
  OTP_MAX_WRONG_TRIES,
  OTP_RESEND_SECONDS,
  OTP_TTL_SECONDS,
} from '@tunes/shared/accounts';
import { INVITATION_SEND_LIMITS } from '@tunes/shared/invitation-send';
import { SEND_REFUSALS } from '@tunes/shared/send-codes';
import { VOUCHER_LOCKOUT_SECONDS, VOUCHER_MAX_FAILURES } from '@tunes/shared/vouchers';
import type { Limit } from './throttle.js';

const MINUTE = 60;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;

/**
 * Every limit of the API in one table, each taken through the one atomic throttle
 * (`lib/throttle.ts`). `docs/security.md` lists them with the tests that prove them. Limits that
 * an operator tunes per site (the SMS budget, sends per client) come from the configuration.
 */
export const LIMITS = {
  /** security.md: at most 5 wrong tries per code. Counted before the compare, refunded when right. */
  codeTries: { limit: OTP_MAX_WRONG_TRIES, windowSeconds: OTP_TTL_SECONDS },
  /** security.md: no second code to one number or address within 30 s. */
  codeResend: {
    limit: 1,
    windowSeconds: OTP_RESEND_SECONDS,
    message: 'A code was sent moments ago. Wait before asking again.',
    reason: SEND_REFUSALS.recentlySent,
  },
  /** security.md: codes to one number or address per hour. */
  codesPerRecipient: {
    limit: OTP_HOURLY_CAP,
    windowSeconds: HOUR,
    message: 'Too many codes were requested for this number or address. Try again later.',
    reason: SEND_REFUSALS.recipientLimit,
  },
  /** Reset links to one address per hour. */
  resetLinksPerRecipient: { limit: 5, windowSeconds: HOUR },
  /**
   * Failed passwords for one account from one client address. The tiers make the wait grow
   * (minutes, then an hour, then a day) instead of a lock a stranger elsewhere could trigger.
   */
  passwordTriesFromClient: [
    { limit: 5, windowSeconds: 5 * MINUTE, message: 'Too many failed logins. Wait a few minutes.' },
    { limit: 10, windowSeconds: HOUR, message: 'Too many failed logins. Try again in an hour.' },
    { limit: 20, windowSeconds: DAY, message: 'Too many failed logins. Try again tomorrow.' },
  ],
  /** Failed passwords for one account from everywhere: bounds a guesser with many addresses. */
  passwordTriesPerAccount: [
    { limit: 50, windowSeconds: HOUR, message: 'Too many failed logins for this account. Try again later.' },
    { limit: 200, windowSeconds: DAY, message: 'Too many failed logins for this account. Try again later.' },
  ],
  /**
   * Failed console sign-ins (password or authenticator code) for one operator from one client
   * address: a stranger's guesses close their own address, not the operator's console.
   */
  consoleSignInTriesFromClient: [
    { limit: 5, windowSeconds: 15 * MINUTE, message: 'Too many failed sign-ins. Wait a while.' },
  ],
  /** Failed console sign-ins for one operator from every address: bounds a guesser with many. */
  consoleSignInTriesPerAccount: [
    {
      limit: 20,
      windowSeconds: HOUR,
      message: 'Too many failed sign-ins for this operator. Try again later.',
    },
  ],
  /** Authenticator codes tried on one operator set-up link. */
  consoleSetupCodeTries: {
    limit: 10,
    windowSeconds: 15 * MINUTE,
    message: 'Too many wrong codes. Wait a while.',
  },
  /** Failed reset-link tokens one client address may try; looked up before any hashing. */
  resetTokenTries: { limit: 20, windowSeconds: HOUR },
  /** Wrong voucher codes one user may try, and one client address across users. */
  voucherTriesPerUser: {
    limit: VOUCHER_MAX_FAILURES,
    windowSeconds: VOUCHER_LOCKOUT_SECONDS,
    message: 'Too many wrong voucher codes. Try again later.',
  },
  voucherTriesFromClient: {
    limit: 50,
    windowSeconds: HOUR,
    message: 'Too many voucher attempts. Try again later.',
  },
  /**
   * Offer-code look-ups from one client address, right or wrong: enough for many listeners behind
   * one carrier address, far too few to walk the codes.
   */
  offerLookupsFromClient: {
    limit: 300,
    windowSeconds: 10 * MINUTE,
    message: 'Too many offer codes were looked up. Try again later.',
  },
  /** Feedback per sender address and per client address. */
  feedbackPerEmail: { limit: 5, windowSeconds: HOUR },
  feedbackFromClient: { limit: 20, windowSeconds: HOUR },
  /**
   * Changes of number one account may start per hour: each texts a code to a number the account
   * names, so a stolen session cannot spray codes across many numbers (SMS pumping).
   */
  phoneChangesPerUser: {
    limit: 5,
    windowSeconds: HOUR,
    message: 'Too many number changes were asked for. Try again later.',
  },
  /**
   * Changes of e-mail address one account may start per hour: each mails a code to an address
   * the account names, so a stolen session cannot spray mail across many addresses.
   */
  emailChangesPerUser: {
    limit: 5,
    windowSeconds: HOUR,
    message: 'Too many e-mail address changes were asked for. Try again later.',
  },
  /** Checkouts one user may start (each asks the gateway for a token). */
  checkoutsPerUser: { limit: 10, windowSeconds: 10 * MINUTE },
  /**
   * Provider checks of one invoice asked by QPay's unsigned callback, and apart from them by its
   * shopper's page: one each per 2 s, so a burst of callbacks or polls is one `payment/check`
   * (the periodic check is apart).
   */
  paymentChecksPerInvoice: { limit: 1, windowSeconds: 2 },
  /** Receipts one operator may send again for one invoice (each is a message to the listener). */
  receiptResendsPerInvoice: {
    limit: 5,
    windowSeconds: HOUR,
    message: 'This receipt was sent 5 times in the last hour. Try again later.',
  },
  /**
   * Invitation links one Family owner may send by SMS or e-mail (issue 37), and one number or
   * address may receive from every owner: nobody sprays messages through the invite form.
   */
  invitationSendsPerOwner: [
    {
      limit: INVITATION_SEND_LIMITS.perOwnerPerHour,
      windowSeconds: HOUR,
      message: 'Too many invitations were sent from your plan. Try again later.',
    },
    {
      limit: INVITATION_SEND_LIMITS.perOwnerPerDay,
      windowSeconds: DAY,
      message: 'Too many invitations were sent from your plan today. Try again tomorrow.',
    },
  ],
  invitationSendsPerRecipient: {
    limit: INVITATION_SEND_LIMITS.perRecipientPerDay,
    windowSeconds: DAY,
    message: 'This number or address has received enough invitations today. Try again tomorrow.',
  },
  /** Company lookups by registry number one user may make (each asks the tax authority). */
  companyLookupsPerUser: {
    limit: 30,
    windowSeconds: 10 * MINUTE,
    message: 'Too many company lookups. Try again later.',
  },
} as const satisfies Record<string, Limit | readonly Limit[]>;

/**
 * Codes a visitor's network (one client address) may have sent per hour without a challenge,
 * whoever receives them (SENDS_PER_CLIENT_HOURLY). Past it a send needs a solved proof-of-work
 * challenge (security.md "Sends"): many listeners share one carrier address.
 */
export const freeSendsFromClient = (limit: number): Limit => ({
  limit,
  windowSeconds: HOUR,
  message: 'Many codes were requested from your network. Solve the challenge to get yours.',
  reason: SEND_REFUSALS.challengeRequired,
});

/**
 * Messages one client address may have sent (codes, links) per hour, whoever receives them,
 * challenges solved or not (SENDS_PER_CLIENT_HOURLY_MAX): the hard cap.
 */
export const sendsFromClient = (limit: number): Limit => ({
  limit,
  windowSeconds: HOUR,
  message: 'Too many messages were requested from your network. Try again later.',
  reason: SEND_REFUSALS.networkLimit,
});

/**
 * Text messages to numbers that share all but their last four digits, per hour
 * (SMS_PER_PREFIX_HOURLY): SMS pumping walks a block of premium numbers.
 */
export const smsPerPrefix = (limit: number): Limit => ({
  limit,
  windowSeconds: HOUR,
  message: 'Too many codes were requested for numbers like this one. Try again later.',
  reason: SEND_REFUSALS.prefixLimit,
});

/** Text messages the whole site may send on listeners' requests per hour (SMS-pumping guard). */
export const smsBudget = (limit: number): Limit => ({
  limit,
  windowSeconds: HOUR,
  message: 'We cannot send text messages right now. Try again later or sign in by e-mail.',
  reason: SEND_REFUSALS.smsBudget,
});

/** A solved challenge (its signature) is good for one send, within the challenge's lifetime. */
export const proofUse = (windowSeconds: number): Limit => ({ limit: 1, windowSeconds });
