import {
  PAYMENT_CURRENCY,
  PAYMENT_LANGUAGE_CODE,
  PAYMENT_REDIRECT_OS,
  PAYMENT_TYPE,
} from '@tunes/shared/constants';
import { z } from 'zod';

/**
 * The card gateway's protocol as the product describes it, in one place: the provider protocol of
 * product.md §10 and shared/spec/product-spec.md §3 and §7 (`POST {provider}/rest/token` with the
 * payment token request fields, the gateway page with the token and `os=PC`, a check-payment
 * call), its constants of §9 (currency MNT, language code mn, payment type purchase, device type
 * mobile or pc, redirect os=PC), and the calls the product added (`rest/charge`, `rest/refund` by
 * `refund_id` and `reference`, `rest/void`, `rest/transactions`; docs/operations.md). The sandbox
 * (apps/sandboxes, gateway) validates against exactly these and the adapter (card-gateway.ts) reads its
 * answers with them; where a limit is ours, not the spec's, the comment says so.
 */

/** The merchant's credentials, sent with every call. Lengths are ours. */
const credentials = {
  client_id: z.string().min(1).max(200),
  client_secret: z.string().min(1).max(500),
};

/**
 * The merchant's invoice id (product.md §4: a UUID and the plan code). Its form is ours: letters,
 * digits and `_ . : -`, at most 100 characters.
 */
export const gatewayInvoiceIdSchema = z
  .string()
  .regex(/^[A-Za-z0-9][A-Za-z0-9_.:-]{0,99}$/, 'invoice_id is 1–100 letters, digits or _ . : -');
/** Whole tögrög, more than nothing; the upper bound is ours. */
const amount = z.number().int().positive().max(1_000_000_000);
/** §9: "Payment currency MNT". */
const currency = z.literal(PAYMENT_CURRENCY);
/** Where the gateway sends the shopper or its callback: http(s), at most 2000 characters (ours). */
const webAddress = z.url({ protocol: /^https?$/ }).max(2000);

export const DEVICE_TYPES = ['mobile', 'pc'] as const;

/** `POST /rest/token`: the payment token request of product-spec §3. */
export const gatewayTokenRequestSchema = z.object({
  ...credentials,
  amount,
  currency,
  description: z.string().min(1).max(500),
  invoice_id: gatewayInvoiceIdSchema,
  redirect_url: webAddress,
  /** Where the signed callback goes; the spec's server callback (product.md §10). */
  callback_url: webAddress.optional(),
  /** §9 "language code mn"; the card page also speaks English (the site's other language). */
  languageCode: z.enum([PAYMENT_LANGUAGE_CODE, 'en']).default(PAYMENT_LANGUAGE_CODE),
  /** §9 "device type mobile or pc". */
  deviceType: z.enum(DEVICE_TYPES).optional(),
  /** The device the page is shown on: the redirect's os (§9 "redirect os=PC"). */
  device: z.literal(PAYMENT_REDIRECT_OS).optional(),
  /** §9 "payment type purchase". */
  payment_type: z.literal(PAYMENT_TYPE).optional(),
  /** "phone or email of the user" (§3): a full number as product.md §5 builds it. */
  phone: z
    .string()
    .regex(/^\d{6,15}$/, 'phone is 6–15 digits, country code first')
    .optional(),
  email: z
    .string()
    .max(254)
    .regex(/^[^\s@]+@[^\s@]+$/, 'email is an e-mail address')
    .optional(),
  /** Keep the card for later charges (`rest/charge`); the paid check then carries its token. */
  save_card: z.boolean().optional(),
});
export const gatewayTokenAnswerSchema = z.object({ token: z.string().min(8).max(200) });

/** The gateway page the shopper is sent to: `GET /payment?token=…&os=PC` (§2). */
export const gatewayPageQuerySchema = z.object({
  token: z.string().min(1).max(200),
  os: z.literal(PAYMENT_REDIRECT_OS).optional(),
});

/** `rest/check-payment`, `rest/void` and `rest/transactions` name one invoice. */
export const gatewayInvoiceRequestSchema = z.object({ ...credentials, invoice_id: gatewayInvoiceIdSchema });

export const PROVIDER_STATUSES = ['pending', 'paid', 'declined', 'cancelled'] as const;
const providerCardSchema = z.object({
  token: z.string().min(1).max(200),
  brand: z.string().max(40),
  last4: z.string().regex(/^\d{4}$/),
  expires: z.string().max(10),
});
export const gatewayCheckAnswerSchema = z.object({
  invoice_id: z.string(),
  status: z.enum(PROVIDER_STATUSES),
  amount: z.number().int(),
  currency: z.string(),
  card: providerCardSchema.nullable().optional(),
});

/** `rest/charge`: a saved card charged for an invoice, once per invoice and attempt. */
export const gatewayChargeRequestSchema = z.object({
  ...credentials,
  card_token: z.string().min(1).max(200),
  invoice_id: gatewayInvoiceIdSchema,
  attempt: z.number().int().min(1).max(100),
  amount,
  currency,
});
/** A capture: the card page's payment or a saved-card charge of one attempt (at most 999). */
const captureReference = z
  .string()
  .regex(/^(session|charge:[1-9]\d{0,2})$/, 'reference is session or charge:<attempt>');
export const gatewayChargeAnswerSchema = z.object({
  invoice_id: z.string(),
  attempt: z.number().int(),
  status: z.enum(['paid', 'declined']),
  amount: z.number().int(),
  currency: z.string(),
  /** The capture that holds a paid answer's money; the sandbox always names it. */
  reference: z.string().max(100).optional(),
});

/** `rest/refund`: all or part of one capture, made once per the merchant's `refund_id`. */
export const gatewayRefundRequestSchema = z.object({
  ...credentials,
  invoice_id: gatewayInvoiceIdSchema,
  amount,
  currency,
  /** Ours, e.g. `operator:<uuid>` or `surplus:<capture>`: asked again, it answers the first refund. */
  refund_id: z
    .string()
    .regex(/^[A-Za-z0-9][A-Za-z0-9_.:-]{0,199}$/, 'refund_id is 1–200 letters, digits or _ . : -'),
  /** Which capture: the card page's payment (`session`, the default) or a saved-card charge. */
  reference: captureReference.default('session'),
});
export const gatewayRefundAnswerSchema = z.object({
  invoice_id: z.string(),
  refund_id: z.string().optional(),
  reference: z.string().optional(),
  status: z.literal('refunded'),
  amount: z.number().int(),
  currency: z.string(),
});

export const gatewayVoidAnswerSchema = z.object({ invoice_id: z.string(), status: z.literal('cancelled') });

export const gatewayTransactionsAnswerSchema = z.object({
  invoice_id: z.string(),
  payment: z
    .object({
      status: z.enum(PROVIDER_STATUSES),
      amount: z.number().int(),
      currency: z.string(),
      created_at: z.string(),
      settled_at: z.string().nullable(),
    })
    .nullable(),
  charges: z.array(
    z.object({
      attempt: z.number().int(),
      status: z.enum(['paid', 'declined']),
      amount: z.number().int(),
      currency: z.string(),
      created_at: z.string(),
    }),
  ),
  refunds: z.array(
    z.object({
      refund_id: z.string(),
      reference: z.string(),
      amount: z.number().int(),
      currency: z.string(),
      created_at: z.string(),
    }),
  ),
});

/** Every refusal: a machine `error` code and a sentence. */
export const gatewayErrorSchema = z.object({ error: z.string().min(1), message: z.string() });

/**
 * `POST /rest/card-session`: the gateway's save-card flow without a charge (a card on file
 * replaced or added between payments). The shopper enters the card on the gateway's card page
 * (`GET /card?token=…&os=PC`); the gateway checks it without taking money and keeps it for the
 * merchant's later charges (`rest/charge`). `reference` is the merchant's id of the session,
 * one session per reference; no amount, no currency (nothing is charged).
 */
export const gatewayCardSessionRequestSchema = z
  .object({
    ...credentials,
    reference: gatewayInvoiceIdSchema,
    redirect_url: webAddress,
    languageCode: z.enum([PAYMENT_LANGUAGE_CODE, 'en']).default(PAYMENT_LANGUAGE_CODE),
    phone: gatewayTokenRequestSchema.shape.phone,
    email: gatewayTokenRequestSchema.shape.email,
  })
  .strict();
export const gatewayCardSessionAnswerSchema = gatewayTokenAnswerSchema;

/** `POST /rest/card-session/check`: the state of one save-card session. */
export const gatewayCardSessionCheckRequestSchema = z.object({
  ...credentials,
  reference: gatewayInvoiceIdSchema,
});
export const CARD_SESSION_STATUSES = ['pending', 'saved', 'declined', 'cancelled'] as const;
export const gatewayCardSessionCheckAnswerSchema = z.object({
  reference: z.string(),
  status: z.enum(CARD_SESSION_STATUSES),
  /** The kept card, once `saved`. */
  card: providerCardSchema.nullable(),
});
