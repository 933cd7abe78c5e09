import { z } from 'zod';
import { REGISTRATION_COUNTRIES } from './account-codes.js';
import { MONGOLIA_DIAL_CODE } from './constants.js';
import { errorBodySchema } from './errors.js';
import { isValidMsisdn, isValidPhone } from './phone-rules.js';
import { SEND_PROOF_MAX_LENGTH } from './send-codes.js';
import {
  dialCodeSchema,
  EMAIL_PATTERN,
  emailSchema,
  loginPasswordSchema,
  newPasswordSchema,
  otpSchema,
  profileFieldSchema,
} from './validation.js';

export * from './account-codes.js';
export { dialCodeOfMsisdn, isValidMsisdn, isValidPhone } from './phone-rules.js';
export * from './send-codes.js';

export const msisdnSchema = z
  .string({ error: 'validation.cant-authenticate-mobile' })
  .trim()
  .refine(isValidMsisdn, 'validation.cant-authenticate-mobile');

/** The listener's language (`en`, `mn`; `MN` as the forgot-password call sends it): their messages' language. */
const languageSchema = z
  .string()
  .trim()
  .toLowerCase()
  .pipe(z.enum(['en', 'mn']))
  .optional();

/** `GET /api/users/requestotp`: a code to a number (SMS) or an address (e-mail). */
export const requestOtpQuerySchema = z
  .object({
    msisdn: msisdnSchema.optional(),
    email: emailSchema.optional(),
    language: languageSchema,
    otpprovider: z.enum(['sms', 'email']).optional(),
    /**
     * The solved proof-of-work challenge (ALTCHA's base64 payload) of a `challenge_required`
     * answer; only needed once the caller's network has asked for many codes this hour.
     */
    proof: z.string().trim().min(1).max(SEND_PROOF_MAX_LENGTH, { abort: true }).optional(),
  })
  .refine((query) => Boolean(query.msisdn) !== Boolean(query.email), {
    message: 'Give either msisdn or email.',
    path: ['msisdn'],
  });

/** ALTCHA's challenge: what the widget solves (`altcha-lib` made and signed it). */
export const sendChallengeSchema = z
  .object({
    parameters: z.record(z.string(), z.unknown()),
    signature: z.string(),
  })
  .describe('SendChallenge');

/**
 * A refused send (security.md "Sends"): the one error shape, with which limit refused
 * (`reason`, one of SEND_REFUSALS), the wait (`retryAfter`, also in `Retry-After`) and, for
 * `challenge_*` reasons, the proof-of-work `challenge` to solve.
 */
export const sendRefusalSchema = errorBodySchema
  .extend({
    reason: z.string().optional(),
    retryAfter: z.number().int().optional(),
    challenge: sendChallengeSchema.optional(),
  })
  .describe('SendRefusal');

export const validateOtpQuerySchema = z
  .object({
    msisdn: msisdnSchema.optional(),
    email: emailSchema.optional(),
    otp: otpSchema,
  })
  .refine((query) => Boolean(query.msisdn) !== Boolean(query.email), {
    message: 'Give either msisdn or email.',
    path: ['msisdn'],
  });

export const validateOtpResponseSchema = z.object({ error: z.string().nullable() });

/** `POST /api/users/registerbymsisdn` (product.md §3 "Mobile registration"). */
export const registerByMsisdnSchema = z
  .object({
    PhoneNumber: z.string({ error: 'validation.cant-authenticate-mobile' }).trim(),
    CountryCode: dialCodeSchema,
    Token: otpSchema,
    /** The site's language at sign-up: the account's, for every message it is sent (default en). */
    Language: languageSchema,
  })
  .superRefine((body, ctx) => {
    if (!isValidPhone(body.CountryCode, body.PhoneNumber)) {
      ctx.addIssue({ code: 'custom', path: ['PhoneNumber'], message: 'validation.cant-authenticate-mobile' });
    }
  });

/** `POST /api/users/register` (product.md §3 "E-mail registration"). */
export const registerByEmailSchema = z.object({
  Email: emailSchema,
  Username: emailSchema.optional(),
  Password: newPasswordSchema,
  Country: z.enum(REGISTRATION_COUNTRIES, { error: 'validation.country' }),
  Language: languageSchema,
  Otp: otpSchema,
});

export const registeredSchema = z.object({ UserId: z.string() });

/** `POST /api/users/forgot-password`. */
export const forgotPasswordSchema = z.object({
  Email: emailSchema,
  Language: languageSchema,
});

/** `POST /api/users/reset-password`: the token of the e-mailed link and the new password. */
export const resetPasswordSchema = z.object({
  Token: z.string({ error: 'validation.reset-link-invalid' }).trim().min(16).max(200),
  Password: newPasswordSchema,
});

export const messageSchema = z.object({ message: z.string() });

/** The reset's answer: the address to sign in with, which the site's login form is filled with. */
export const resetPasswordAnswerSchema = messageSchema.extend({ Email: z.string().nullable() });

/** The login form (site) and the password grant (server). */
export const loginSchema = z.object({ username: emailSchema, password: loginPasswordSchema });

export const tokenResponseSchema = z.object({
  access_token: z.string(),
  refresh_token: z.string(),
  token_type: z.literal('Bearer'),
  expires_in: z.number().int(),
});

export type TokenPair = z.infer<typeof tokenResponseSchema>;

/** product.md §3 "Login info entry". */
export const loginInfoSchema = z.object({
  Type: z.enum(['Email', 'Msisdn', 'Username']),
  Value: z.string(),
});

export type LoginInfo = z.infer<typeof loginInfoSchema>;

const optionalName = profileFieldSchema.nullish().transform((value) => value ?? undefined);

/**
 * `PATCH /api/users/me/details`: the site sends its whole form state (product.md §3); only FirstName,
 * LastName, Email and Language are read, names and e-mail at most 50 characters (product.md §5). An
 * empty Email removes it. Language (en, mn) is the one every message to the account is written in.
 * A UserId other than the signed-in user's is refused (403).
 */
export const detailsChangeSchema = z.object({
  /** The form state carries the profile's UserId; naming another user is refused (403). */
  UserId: z.uuid({ error: 'UserId must be a user id' }).optional(),
  FirstName: optionalName,
  LastName: optionalName,
  Email: profileFieldSchema
    .refine((value) => value === '' || EMAIL_PATTERN.test(value), 'validation.enter-valid-email')
    .transform((value) => value.toLowerCase())
    .nullish()
    .transform((value) => value ?? undefined),
  Language: languageSchema,
});

export type DetailsChange = z.input<typeof detailsChangeSchema>;

/** `POST /api/users/me/email/confirm`: the code sent to the new address. */
export const emailChangeConfirmSchema = z.object({ Otp: otpSchema });

/** `POST /api/users/me/password` (product.md §14). */
export const changePasswordSchema = z.object({
  CurrentPassword: loginPasswordSchema,
  NewPassword: newPasswordSchema,
});

/** One signed-in device (a refresh-token family) of `GET /api/users/me/sessions`. */
export const sessionSchema = z.object({
  id: z.string(),
  /** e.g. "Chrome on Windows", "Safari on iOS (mobile)"; "Unknown device" without a user agent. */
  device: z.string(),
  /** The address it was last used from, with its last part hidden (e.g. "203.0.113.x"). */
  address: z.string().nullable(),
  signedInAt: z.string(),
  lastUsedAt: z.string(),
  /** This is the device asking. */
  current: z.boolean(),
});

export type Session = z.infer<typeof sessionSchema>;

/** `DELETE /api/users/me`: a fresh proof, a code sent to the account or its password. */
export const deleteAccountSchema = z
  .object({ Otp: otpSchema.optional(), Password: loginPasswordSchema.optional() })
  .refine((body) => Boolean(body.Otp) !== Boolean(body.Password), {
    message: 'Give either Otp or Password.',
    path: ['Otp'],
  });

/**
 * `POST /api/users/me/phone`: the new number, as registration takes it (product.md §5); a code goes
 * to it and nothing changes until it is confirmed. The current number withdraws a waiting change.
 */
export const phoneChangeSchema = z
  .object({
    PhoneNumber: z
      .string({ error: 'validation.cant-authenticate-mobile' })
      .trim()
      .max(15, { message: 'validation.cant-authenticate-mobile', abort: true }),
    CountryCode: dialCodeSchema.default(Number(MONGOLIA_DIAL_CODE)),
  })
  .superRefine((body, ctx) => {
    if (!isValidPhone(body.CountryCode, body.PhoneNumber)) {
      ctx.addIssue({ code: 'custom', path: ['PhoneNumber'], message: 'validation.cant-authenticate-mobile' });
    }
  });

export type PhoneChange = z.input<typeof phoneChangeSchema>;

/** `POST /api/users/me/phone/confirm`: the code sent to the new number. */
export const phoneChangeConfirmSchema = z.object({ Otp: otpSchema });

/**
 * `POST /api/users/me/password/set`: a first password for an account that has none (a phone
 * account), proven by a fresh code sent to the account's number (or address); the spec's rules.
 */
export const setPasswordSchema = z.object({ Otp: otpSchema, NewPassword: newPasswordSchema }).strict();
