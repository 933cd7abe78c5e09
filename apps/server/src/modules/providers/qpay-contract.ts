import { z } from 'zod';

/**
 * QPay's merchant API v2 as an independent public description states it: not what our adapter
 * or our sandbox happen to agree on. Derived from the open-source QPay client
 * github.com/Amraa1/qpay_client at commit ac29fbb29eceebfea62e9e6c7362e100568d2666 (release 2.0.4):
 *
 * - `specs/openapi.json`: paths, required request fields, formats, `additionalProperties: false`;
 * - `src/qpay_client/v2/schemas.py`: the typed models (lengths, `gt=0`, required answer fields);
 * - `src/qpay_client/v2/enums.py`, `types.py`: statuses, object types, currencies, URL rule;
 * - `src/qpay_client/v2/error.py`, `utils.py`: error keys and HTTP codes;
 * - `README.md` "FastAPI callback flow", `examples/quickstart.py`: the callback's `SUCCESS`.
 *
 * Where the two files differ, the stricter reading is kept and its comment names both. This file
 * holds the shared kinds, the token calls, the errors and the callback; the invoice calls are in
 * qpay-invoice-contract.ts, the payment calls in qpay-payment-contract.ts. The sandbox (apps/sandboxes, qpay) validates with these schemas; the contract test
 * (test/premium/qpay-contract.test.ts) checks the adapter's requests and the sandbox's answers
 * against them. Answers are loose objects: the client's models ignore fields they do not name.
 */
export const QPAY_DESCRIPTION = {
  repository: 'Amraa1/qpay_client',
  commit: 'ac29fbb29eceebfea62e9e6c7362e100568d2666',
} as const;

/** enums.py PaymentStatus. (QPay's older pages also name REFUNDED: the adapter reads it, nobody here answers it.) */
export const QPAY_DOCUMENTED_PAYMENT_STATUSES = ['NEW', 'FAILED', 'PAID', 'PARTIAL', 'REFUND'] as const;
export const qpayPaymentStatus = z.enum(QPAY_DOCUMENTED_PAYMENT_STATUSES);
/** enums.py InvoiceStatus. */
export const qpayInvoiceStatus = z.enum(['OPEN', 'CLOSED']);
/** enums.py ObjectType. */
export const qpayObjectType = z.enum(['INVOICE', 'QR', 'ITEM']);
/** enums.py Currency. */
export const qpayCurrency = z.enum(['MNT', 'USD', 'CNY', 'JPY', 'RUB', 'EUR']);
/** enums.py TransactionType. */
export const transactionType = z.enum(['P2P', 'CARD']);

/** pydantic `Decimal`: a JSON number or a decimal string ("17900.00"). */
export const decimal = z.union([z.number(), z.string().regex(/^-?\d+(\.\d+)?$/)]);
/** schemas.py `amount: Decimal = Field(gt=0)`. */
export const positiveAmount = decimal.refine((value) => Number(value) > 0, 'must be greater than 0');
/** types.py `HttpUrlStr` (pydantic HttpUrl: http or https, a host); openapi.json `format: uri`, maxLength 255. */
export const qpayHttpUrl = z
  .string()
  .max(255)
  .refine((value) => {
    try {
      const url = new URL(value);
      return (url.protocol === 'http:' || url.protocol === 'https:') && url.hostname !== '';
    } catch {
      return false;
    }
  }, 'must be an http(s) URL');
/** openapi.json `format: date`; schemas.py `datetime`: either is taken. */
export const dateOrTime = z.union([z.iso.date(), z.iso.datetime({ offset: true, local: true })]);
export const dateTime = z.iso.datetime({ offset: true, local: true });

// ---- POST /v2/auth/token, POST /v2/auth/refresh --------------------------------------------

/** openapi.json `authToken`: HTTP Basic with client_id and client_secret, no body. */
export const qpayTokenRequestHeaders = z.looseObject({
  authorization: z.string().regex(/^Basic [A-Za-z0-9+/]+=*$/),
});
/** openapi.json `authRefresh`, every other call: `Bearer` with the refresh or the access token. */
export const qpayBearerHeaders = z.looseObject({ authorization: z.string().regex(/^Bearer \S+$/) });
/**
 * schemas.py TokenResponse (openapi.json `authToken` 200): `expires_in` and `refresh_expires_in`
 * are the Unix time (seconds) each token ends, not durations.
 */
export const qpayTokenResponse = z.looseObject({
  token_type: z.string(),
  access_token: z.string(),
  expires_in: z.number(),
  refresh_token: z.string(),
  refresh_expires_in: z.number(),
  scope: z.string(),
  'not-before-policy': z.string(),
  session_state: z.string(),
});

// ---- errors and the callback -----------------------------------------------------------------

/** error.py QPayErrorCode: the HTTP status of each kind of failure (a missing object is 422). */
export const QPAY_ERROR_STATUS = {
  VALIDATION_ERROR: 400,
  UNAUTHORIZED_ERROR: 401,
  FORBIDDEN_ERROR: 403,
  UNIQUE_ERROR: 409,
  NOT_FOUND_ERROR: 422,
  INTERNAL_ERROR: 500,
} as const;

/** The error.py QPayErrorKey values this project meets (the description lists 53). */
export const QPAY_ERROR_KEYS = [
  'AUTHENTICATION_FAILED',
  'NO_CREDENDIALS',
  'PERMISSION_DENIED',
  'INVOICE_CODE_INVALID',
  'INVOICE_CODE_REGISTERED',
  'INVOICE_NOTFOUND',
  'INVOICE_PAID',
  'INVOICE_ALREADY_CANCELED',
  'INVOICE_LINE_REQUIRED',
  'INVALID_AMOUNT',
  'INVALID_OBJECT_TYPE',
  'OBJECT_DATA_ERROR',
  'PAYMENT_NOTFOUND',
  'PAYMENT_NOT_PAID',
  'PAYMENT_ALREADY_CANCELED',
] as const;
export type QpayErrorKey = (typeof QPAY_ERROR_KEYS)[number] | keyof typeof QPAY_ERROR_STATUS;

/**
 * openapi.json ApiError (`message` required; `code`, `details` optional). The client's utils.py
 * reads the error key from `message`; its integration test quotes QPay's `{ error, message }`.
 */
export const qpayErrorResponse = z.looseObject({
  error: z.string().optional(),
  code: z.string().optional(),
  message: z.string(),
  details: z.record(z.string(), z.unknown()).optional(),
});

/** README.md "FastAPI callback flow": the merchant's callback answers HTTP 200 with this body. */
export const QPAY_CALLBACK_ANSWER = 'SUCCESS';
