import { errorBodySchema } from '@tunes/shared/errors';
import { z } from 'zod';

/** The error answers every accounts route may give, in the one error shape. */
export const accountErrors = {
  400: errorBodySchema,
  401: errorBodySchema,
  403: errorBodySchema,
  404: errorBodySchema,
  429: errorBodySchema,
};

/** A user id in a path or query, named in the 400 it causes. */
export const userIdSchema = (name: string) => z.uuid({ error: `${name} must be a user id` });
