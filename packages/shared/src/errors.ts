import { z } from 'zod';

/**
 * The one error shape of every `/api` answer that is not a success (api.md).
 * `error` is a stable machine code, `message` a human sentence in English, `field` names the
 * offending input for 400s. Grant errors of the token endpoint add `error_description`.
 */
export const errorBodySchema = z
  .object({
    error: z.string(),
    message: z.string(),
    field: z.string().optional(),
    error_description: z.string().optional(),
  })
  .describe('Error');

export type ErrorBody = z.infer<typeof errorBodySchema>;

export { ERROR_CODES, type ErrorCode } from './error-codes.js';
