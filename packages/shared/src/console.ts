import { z } from 'zod';
import { CONTENT_TYPES, httpUrlSchema, imageUrlSchema, REEL_COUNT, videoUrlSchema } from './content.js';
import { emailSchema } from './validation.js';

/** Request and answer shapes of the operator console API (docs/console-api.md). */

export const OPERATOR_ROLES = ['admin', 'support', 'content'] as const;
export type OperatorRole = (typeof OPERATOR_ROLES)[number];

export const operatorSchema = z
  .object({
    id: z.string(),
    email: z.string(),
    role: z.enum(OPERATOR_ROLES),
    disabled: z.boolean(),
    setUp: z.boolean(),
    createdAt: z.string(),
    lastSignInAt: z.string().nullable(),
  })
  .describe('Operator');
export type Operator = z.infer<typeof operatorSchema>;

const totpCodeSchema = z
  .string()
  .trim()
  .regex(/^\d{6}$/, 'must be the 6 digits of the authenticator app');
const setupTokenSchema = z.string().min(20).max(100);

export const setupStartSchema = z.object({ token: setupTokenSchema });
export const setupCompleteSchema = z.object({
  token: setupTokenSchema,
  password: z.string().max(200),
  code: totpCodeSchema,
});
export const signInSchema = z.object({
  email: emailSchema,
  password: z.string().min(1).max(200),
  code: totpCodeSchema,
});
export const createOperatorSchema = z.object({ email: emailSchema, role: z.enum(OPERATOR_ROLES) });
export const updateOperatorSchema = z
  .object({ role: z.enum(OPERATOR_ROLES).optional(), disabled: z.boolean().optional() })
  .refine((value) => value.role !== undefined || value.disabled !== undefined, 'give role or disabled');

const text = z.string().trim().min(1).max(500);
export const text2Schema = z.object({ en: text, mn: text });
export const draftLandingSchema = z
  .object({
    banner: z.object({ title: text2Schema, description: text2Schema }),
    musicVideo: videoUrlSchema,
    musicVideoImage: imageUrlSchema,
    reels: z.array(z.object({ url: videoUrlSchema, description: text2Schema })).length(REEL_COUNT),
  })
  .describe('DraftLanding');
export type DraftLanding = z.infer<typeof draftLandingSchema>;

export const cardFieldsSchema = z.object({
  type: z.enum(CONTENT_TYPES),
  title: text2Schema,
  tunesUrl: httpUrlSchema,
  image: imageUrlSchema,
  trending: z.boolean().default(false),
});
export const cardPatchSchema = cardFieldsSchema.partial();
export const draftCardSchema = cardFieldsSchema
  .extend({ id: z.string(), position: z.number().int(), trending: z.boolean() })
  .describe('DraftCard');
export type DraftCard = z.infer<typeof draftCardSchema>;
export const cardOrderSchema = z.object({
  type: z.enum(CONTENT_TYPES),
  ids: z.array(z.string().max(64)).max(200),
});

export const userSearchSchema = z.object({ q: z.string().trim().min(1).max(254) });
export const extendSchema = z.object({ days: z.number().int().min(1).max(366) });
export const cancelSchema = z.object({ immediately: z.boolean() });

export const voucherBatchRequestSchema = z.object({
  packageCode: z.string().trim().min(1).max(64),
  days: z.number().int().min(1).max(366),
  count: z.number().int().min(1).max(5000),
  expiresAt: z.iso.datetime({ offset: true }),
  note: z.string().trim().max(200).optional(),
});
export const refundRequestSchema = z.object({
  reason: z.string().trim().min(1).max(500),
  /** What to give back (whole tögrög); all that is left of the payment when absent. */
  amount: z.number().int().positive().max(100_000_000).optional(),
});
export type RefundRequest = z.infer<typeof refundRequestSchema>;
/** The console's answer to a refund (console/refunds.ts). */
export interface RefundAnswer {
  invoiceId: string;
  amount: number;
  currency: string;
  refundedAt: string;
  status: 'refunded' | 'partly_refunded';
  /** What is still paid of the invoice after this refund. */
  remaining: number;
  /** The e-barimt is voided on every refund; one for what remains is not re-issued. */
  receipt: { voided: boolean; reissued: false };
}
export const dashboardQuerySchema = z.object({ days: z.enum(['30', '365']).default('30') });
export const auditQuerySchema = z.object({
  limit: z.coerce.number().int().min(1).max(100).default(50),
  before: z
    .string()
    .regex(/^\d{1,19}$/)
    .optional(),
  operatorId: z.uuid().optional(),
  targetId: z.string().max(200).optional(),
});
