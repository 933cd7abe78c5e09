import { API_ERROR_CODES } from './error-codes.js';

/**
 * Answer codes and the invitation link of the family calls, without schemas: what the site needs
 * at first paint.
 * `family.ts` re-exports them beside its schemas.
 */

/** Error codes the site tells apart when an invite is accepted (product.md §8). */
export const INVITATION_ERRORS = {
  alreadySubscribed: API_ERROR_CODES.alreadySubscribed,
  invalid: API_ERROR_CODES.invitationInvalid,
} as const;

/** `POST /subscription/{id}/leave`: the owner holds the plan and cannot leave it (they cancel it). */
export const MEMBERSHIP_ERRORS = {
  ownerCannotLeave: API_ERROR_CODES.ownerCannotLeave,
} as const;

/** The link an owner shares: `{site}/invite?code=…` on the product's own domain (product.md §2). */
export function invitationLink(origin: string, code: string): string {
  return `${origin.replace(/\/$/, '')}/invite?code=${encodeURIComponent(code)}`;
}

/** The longest recipient an invitation is sent to (an e-mail address's maximum), issue 37. */
export const INVITATION_RECIPIENT_MAX_LENGTH = 254;
