import { parsePhoneNumberFromString } from 'libphonenumber-js';
import { z } from 'zod';
import { MONGOLIA_DIAL_CODE } from './constants.js';
import { INVITATION_RECIPIENT_MAX_LENGTH } from './family-codes.js';
import { MONGOLIAN_PHONE_PATTERN } from './phone-number.js';
import { emailSchema } from './validation.js';

/**
 * An owner sends one of their live invitation links by SMS or e-mail (issue 37). Kept apart from
 * `family.ts` because it loads libphonenumber-js: the site loads it with the send form only.
 */

/** How many invitations one owner may send, and one number or address may receive (docs/security.md). */
export const INVITATION_SEND_LIMITS = {
  perOwnerPerHour: 5,
  perOwnerPerDay: 20,
  perRecipientPerDay: 3,
} as const;

export { INVITATION_RECIPIENT_MAX_LENGTH };

export type InvitationRecipient = { channel: 'sms'; to: string } | { channel: 'email'; to: string };

/** Digits, spaces and the usual separators, with an optional leading +: what a number may look like. */
const PHONE_SHAPE = /^\+?[\d\s().-]{6,24}$/;

/**
 * Where an invitation goes: an e-mail address (the shared e-mail rules), or a phone number as
 * the full number the outbox and SMS use ("97688112233"). A number without a country is
 * Mongolian (8 digits); one with `+` is checked against its country's numbering plan by
 * libphonenumber-js. Anything else is null.
 */
export function invitationRecipientOf(value: string): InvitationRecipient | null {
  const trimmed = value.trim();
  if (trimmed.length === 0 || trimmed.length > INVITATION_RECIPIENT_MAX_LENGTH) return null;
  if (trimmed.includes('@')) {
    const email = emailSchema.safeParse(trimmed);
    return email.success ? { channel: 'email', to: email.data } : null;
  }
  if (!PHONE_SHAPE.test(trimmed)) return null;
  const digits = trimmed.replace(/\D/g, '');
  // A Mongolian number written whole without the + (as the site shows numbers): 976 and 8 digits.
  const international =
    trimmed.startsWith('+') || (digits.startsWith(MONGOLIA_DIAL_CODE) && digits.length === 11);
  const phone = international
    ? parsePhoneNumberFromString(`+${digits}`)
    : parsePhoneNumberFromString(digits, 'MN');
  if (!phone) return null;
  const msisdn = `${phone.countryCallingCode}${phone.nationalNumber}`;
  const valid =
    phone.countryCallingCode === MONGOLIA_DIAL_CODE
      ? MONGOLIAN_PHONE_PATTERN.test(phone.nationalNumber)
      : phone.isValid();
  return valid ? { channel: 'sms', to: msisdn } : null;
}

/** `POST /subscription/{id}/invitation-codes/{code}/send`: a phone number or an e-mail address. */
export const sendInvitationSchema = z
  .object({
    To: z
      .string({ error: 'validation.invite-recipient' })
      .max(INVITATION_RECIPIENT_MAX_LENGTH, { message: 'validation.invite-recipient', abort: true })
      .refine((value) => invitationRecipientOf(value) !== null, 'validation.invite-recipient'),
  })
  .strict();

export const sentInvitationSchema = z
  .object({ Channel: z.enum(['sms', 'email']), ExpiresAt: z.string().describe('ISO 8601') })
  .describe('SentInvitation');
export type SentInvitation = z.infer<typeof sentInvitationSchema>;
