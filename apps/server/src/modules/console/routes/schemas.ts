import { errorBodySchema } from '@tunes/shared/errors';
import { z } from 'zod';

/** What every console route's schema shares (docs/console-api.md). */
export const TAGS = ['console'];
export const SECURED = [{ operatorSession: [] }];
/** Success bodies are described in docs/console-api.md; the error shape is the API's one. */
const success = z.any();
export const errors = {
  200: success,
  201: success,
  204: success,
  400: errorBodySchema,
  401: errorBodySchema,
  403: errorBodySchema,
  404: errorBodySchema,
  409: errorBodySchema,
};
export const id = z.object({ id: z.string().max(64) });
export const userAndSubscription = z.object({ id: z.string().max(64), subscriptionId: z.string().max(64) });
export const userAndInvoice = z.object({ id: z.string().max(64), invoiceId: z.string().max(200) });
export const empty = z.object({}).optional();
