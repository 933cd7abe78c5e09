/**
 * Answer codes of the family calls, without schemas: what the site needs at first paint.
 * `family.ts` re-exports them beside its schemas.
 */

/** Error codes the site tells apart when an invite is accepted (product.md §8). */
export const INVITATION_ERRORS = {
  alreadySubscribed: 'already_subscribed',
  invalid: 'invitation_invalid',
} as const;

/** `POST /subscription/{id}/leave`: the owner holds the plan and cannot leave it (they cancel it). */
export const MEMBERSHIP_ERRORS = {
  ownerCannotLeave: 'owner_cannot_leave',
} as const;
