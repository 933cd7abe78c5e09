/**
 * The feedback form's limits and answer (product.md §3), without schemas, so the contact page
 * shows its form without loading zod. The request schema is in `content.ts`.
 */

export const FEEDBACK_SUCCESS_MESSAGE = 'Feedback submitted successfully!';
export const FEEDBACK_NAME_MAX_LENGTH = 100;
export const FEEDBACK_TEXT_MAX_LENGTH = 2000;
