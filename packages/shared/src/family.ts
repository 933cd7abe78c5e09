import { z } from 'zod';

/**
 * Family and Duo sharing (product.md §3/§4/§7): invitation codes, shared users, accepting an invite.
 * Field names are the spec's (PascalCase).
 */

/** An invitation code: 22 URL-safe characters carrying 128 random bits. */
export const INVITATION_CODE_PATTERN = /^[A-Za-z0-9_-]{16,64}$/;

export const invitationCodeParamSchema = z.object({
  code: z.string().max(64, 'The invitation code is not valid.'),
});

export const subscriptionIdParamSchema = z.object({
  id: z.uuid('The subscription id must be a UUID.'),
});

/** `DELETE /subscription/{id}/invitation-codes/{code}`: one of the plan's invitation codes. */
export const invitationOfPlanParamsSchema = subscriptionIdParamSchema.extend(invitationCodeParamSchema.shape);

export const sharedUserParamsSchema = subscriptionIdParamSchema.extend({
  userId: z.uuid('The user id must be a UUID.'),
});

/** `GET /subscription/{id}/invitation-codes/`: live codes and free seats left to invite. */
export const invitationCodesSchema = z
  .object({
    Codes: z.array(z.string()),
    /** MaxSharedUsers minus members minus live (unused, unexpired) codes. */
    Remaining: z.number().int().min(0),
  })
  .describe('InvitationCodes');

export type InvitationCodes = z.infer<typeof invitationCodesSchema>;

export const createdInvitationSchema = z
  .object({ Code: z.string(), ExpiresAt: z.string().describe('ISO 8601') })
  .describe('CreatedInvitation');

/** product.md §3 "Shared user": Username is the phone number (or the login name without one). */
export const sharedUserSchema = z
  .object({ UserId: z.string(), FirstName: z.string(), Username: z.string() })
  .describe('SharedUser');

export type SharedUser = z.infer<typeof sharedUserSchema>;

export const sharedUsersSchema = z.array(sharedUserSchema);

export const acceptedInvitationSchema = z
  .object({ SubscriptionId: z.string() })
  .describe('AcceptedInvitation');

export { INVITATION_ERRORS, invitationLink, MEMBERSHIP_ERRORS } from './family-codes.js';

/** The spec's texts for the two refusals (product.md §8); the site shows its translations. */
export const ALREADY_SUBSCRIBED_MESSAGE =
  'Sorry, you are already on an active subscription. Cancel your subscription to join this plan.';
export const INVITATION_INVALID_MESSAGE =
  'Something went wrong. This invite may have already been used or expired.';
