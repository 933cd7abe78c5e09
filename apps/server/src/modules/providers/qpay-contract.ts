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
 * Where the two files differ, the stricter reading is kept and its comment names both. The
 * sandbox (apps/sandboxes, qpay) validates with these schemas; the contract test
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
const transactionType = z.enum(['P2P', 'CARD']);

/** pydantic `Decimal`: a JSON number or a decimal string ("17900.00"). */
const decimal = z.union([z.number(), z.string().regex(/^-?\d+(\.\d+)?$/)]);
/** schemas.py `amount: Decimal = Field(gt=0)`. */
const positiveAmount = decimal.refine((value) => Number(value) > 0, 'must be greater than 0');
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
const dateOrTime = z.union([z.iso.date(), z.iso.datetime({ offset: true, local: true })]);
const dateTime = z.iso.datetime({ offset: true, local: true });

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

// ---- POST /v2/invoice ------------------------------------------------------------------------

/** openapi.json Address = schemas.py Address. */
const address = z.strictObject({
  city: z.string().max(100).nullish(),
  district: z.string().max(100).nullish(),
  street: z.string().max(100).nullish(),
  building: z.string().max(100).nullish(),
  address: z.string().max(100).nullish(),
  zipcode: z.string().max(20).nullish(),
  longitude: z.string().max(20).nullish(),
  latitude: z.string().max(20).nullish(),
});
/** openapi.json BranchData and ReceiverData (the same fields) = schemas.py SenderBranchData, InvoiceReceiverData. */
const party = z.strictObject({
  register: z.string().max(20).nullish(),
  name: z.string().max(100).nullish(),
  email: z.email().max(255).nullish(),
  phone: z.string().max(20).nullish(),
  address: address.nullish(),
});
/** schemas.py Discount / Surcharge (openapi.json: the same, note unbounded; schemas.py: note ≤ 255). */
const adjustment = (code: 'discount_code' | 'surcharge_code') =>
  z.strictObject({
    [code]: z.string().max(45).nullish(),
    description: z.string().max(100),
    amount: decimal,
    note: z.string().max(255).nullish(),
  });
/** openapi.json Tax (description required) and schemas.py Tax (tax_code CITY_TAX or VAT). */
const tax = z.strictObject({
  tax_code: z.enum(['CITY_TAX', 'VAT']).nullish(),
  description: z.string().max(100),
  amount: decimal,
  city_tax: z.number().nullish(),
  note: z.string().max(255).nullish(),
});
/** openapi.json InvoiceLine (codes ≤ 45) with schemas.py Line (note ≤ 100). */
export const qpayInvoiceLine = z.strictObject({
  sender_product_code: z.string().max(45).nullish(),
  tax_product_code: z.string().max(45).nullish(),
  line_description: z.string().max(255),
  line_quantity: decimal,
  line_unit_price: decimal,
  note: z.string().max(100).nullish(),
  discounts: z.array(adjustment('discount_code')).nullish(),
  surcharges: z.array(adjustment('surcharge_code')).nullish(),
  taxes: z.array(tax).nullish(),
});
/** openapi.json Transaction and BankAccount (schemas.py Account adds is_default). */
const transaction = z.strictObject({
  description: z.string().max(100),
  amount: decimal,
  accounts: z
    .array(
      z.strictObject({
        account_bank_code: z.string().min(1),
        account_number: z.string().max(100),
        account_name: z.string().max(100),
        account_currency: qpayCurrency,
        is_default: z.boolean().nullish(),
      }),
    )
    .nullish(),
});

/**
 * openapi.json CreateInvoiceRequest (`additionalProperties: false`; required invoice_code,
 * sender_invoice_no, invoice_receiver_code, invoice_description) with schemas.py
 * InvoiceCreateRequest (callback_url required, an amount > 0 or lines, the subscription fields
 * and tax_type the OpenAPI example uses). `sender_invoice_no` is the merchant's own unique number.
 */
export const qpayCreateInvoiceRequest = z
  .strictObject({
    invoice_code: z.string().max(45),
    sender_invoice_no: z.string().max(45),
    sender_branch_code: z.string().max(45).nullish(),
    sender_branch_data: party.nullish(),
    sender_staff_code: z.string().max(100).nullish(),
    sender_staff_data: z
      .strictObject({
        name: z.string().max(100).nullish(),
        email: z.email().max(255).nullish(),
        phone: z.string().max(20).nullish(),
      })
      .nullish(),
    sender_terminal_code: z.string().max(45).nullish(),
    sender_terminal_data: z.strictObject({ name: z.string().max(100).nullish() }).nullish(),
    invoice_receiver_code: z.string().max(45),
    invoice_receiver_data: party.nullish(),
    invoice_description: z.string().max(255),
    invoice_due_date: dateOrTime.nullish(),
    enable_expiry: z.boolean().nullish(),
    expiry_date: dateOrTime.nullish(),
    calculate_vat: z.boolean().nullish(),
    tax_type: z.enum(['1', '2', '3']).nullish(),
    tax_customer_code: z.string().nullish(),
    line_tax_code: z.string().nullish(),
    allow_partial: z.boolean().nullish(),
    minimum_amount: decimal.nullish(),
    allow_exceed: z.boolean().nullish(),
    maximum_amount: decimal.nullish(),
    allow_subscribe: z.boolean().nullish(),
    subscription_interval: z
      .string()
      .regex(/^[1-9]\d{0,3}[DWM]$/)
      .nullish(),
    subscription_webhook: qpayHttpUrl.nullish(),
    amount: positiveAmount.nullish(),
    callback_url: qpayHttpUrl,
    note: z.string().max(1000).nullish(),
    lines: z.array(qpayInvoiceLine).nullish(),
    transactions: z.array(transaction).nullish(),
  })
  .superRefine((invoice, context) => {
    if (invoice.amount == null && !invoice.lines?.length) {
      context.addIssue({ code: 'custom', path: ['amount'], message: 'an amount or lines are required' });
    }
    if (
      invoice.allow_subscribe &&
      (!invoice.subscription_interval || !invoice.subscription_webhook || !invoice.lines?.length)
    ) {
      context.addIssue({
        code: 'custom',
        path: ['allow_subscribe'],
        message: 'a subscription needs subscription_interval, subscription_webhook and lines',
      });
    }
  });

/** schemas.py InvoiceCreateResponse (openapi.json lists no logo nor qPay_shortUrl; the client requires both). */
export const qpayCreateInvoiceResponse = z.looseObject({
  subscription: z.looseObject({}).nullish(),
  invoice_id: z.string(),
  qr_text: z.string(),
  qr_image: z.string(),
  qPay_shortUrl: z.string(),
  urls: z.array(
    z.looseObject({ name: z.string(), description: z.string(), logo: z.string(), link: z.string() }),
  ),
});

// ---- payments: POST /v2/payment/check, POST /v2/payment/list, DELETE /v2/payment/refund/{id} --

/** schemas.py Offset. */
const offset = z.object({
  page_number: z.number().int().min(1),
  page_limit: z.number().int().min(1).max(1000),
});
/** schemas.py PaymentCheckRequest (openapi.json: the same three fields). */
export const qpayPaymentCheckRequest = z.object({
  object_type: qpayObjectType,
  object_id: z.string().max(50),
  offset,
});
/** schemas.py Payment: one row of a payment check. */
export const qpayPayment = z.looseObject({
  payment_id: z.string(),
  payment_status: qpayPaymentStatus,
  payment_amount: decimal,
  trx_fee: decimal,
  payment_currency: qpayCurrency,
  payment_wallet: z.string(),
  payment_type: transactionType,
  next_payment_date: z.iso.date().nullish(),
  next_payment_datetime: dateTime.nullish(),
  card_transactions: z.array(
    z.looseObject({
      card_type: z.string(),
      is_cross_border: z.boolean(),
      amount: decimal,
      currency: qpayCurrency,
      date: dateTime,
      status: z.string(),
      settlement_status: z.string(),
      settlement_status_date: dateTime,
    }),
  ),
  p2p_transactions: z.array(
    z.looseObject({
      transaction_bank_code: z.string().min(1),
      account_bank_code: z.string().min(1),
      account_bank_name: z.string(),
      account_number: z.string(),
      status: z.string(),
      amount: decimal,
      currency: qpayCurrency,
      settlement_status: z.string(),
    }),
  ),
});
/** schemas.py PaymentCheckResponse. */
export const qpayPaymentCheckResponse = z.looseObject({
  count: z.number().int(),
  paid_amount: decimal.nullish(),
  rows: z.array(qpayPayment),
});

/**
 * schemas.py PaymentListRequest (start_date, end_date required) with openapi.json `listPayment`
 * (object_type, object_id, offset required; merchant branch, terminal and staff codes optional).
 */
export const qpayPaymentListRequest = z.object({
  object_type: qpayObjectType,
  object_id: z.string(),
  start_date: dateTime,
  end_date: dateTime,
  merchant_branch_code: z.string().nullish(),
  merchant_terminal_code: z.string().nullish(),
  merchant_staff_code: z.string().nullish(),
  offset,
});
/** schemas.py PaymentListResponse and PaymentList. */
export const qpayPaymentListResponse = z.looseObject({
  count: z.number().int(),
  rows: z.array(
    z.looseObject({
      payment_id: z.string(),
      payment_date: dateTime,
      payment_status: qpayPaymentStatus,
      payment_fee: decimal,
      payment_amount: decimal,
      payment_currency: qpayCurrency,
      payment_wallet: z.string(),
      payment_name: z.string(),
      payment_description: z.string(),
      next_payment_date: z.iso.date().nullish(),
      next_payment_datetime: dateTime.nullish(),
      paid_by: transactionType,
      object_type: qpayObjectType,
      object_id: z.string(),
    }),
  ),
});

/** schemas.py PaymentRefundRequest (openapi.json `refundPayment`: `{ note }`); the body may be left out. */
export const qpayRefundRequest = z.object({ note: z.string().max(255).nullish() }).nullish();

// ---- GET and DELETE /v2/invoice/{id} ---------------------------------------------------------

/** schemas.py InvoiceGetResponse. */
export const qpayInvoiceResponse = z.looseObject({
  invoice_id: z.string(),
  invoice_status: qpayInvoiceStatus,
  sender_invoice_no: z.string().max(45),
  sender_branch_code: z.string().max(45).nullish(),
  sender_staff_code: z.string().max(100).nullish(),
  sender_terminal_code: z.string().max(45).nullish(),
  invoice_description: z.string().max(255),
  invoice_due_date: dateOrTime.nullish(),
  enable_expiry: z.boolean().nullish(),
  expiry_date: dateOrTime.nullish(),
  minimum_amount: decimal.nullish(),
  maximum_amount: decimal.nullish(),
  allow_partial: z.boolean().nullish(),
  allow_exceed: z.boolean().nullish(),
  total_amount: decimal,
  gross_amount: decimal,
  tax_amount: decimal,
  surcharge_amount: decimal,
  callback_url: qpayHttpUrl,
  note: z.string().nullish(),
  lines: z.array(z.looseObject({})).nullish(),
  transactions: z.array(z.looseObject({})).nullish(),
  inputs: z.array(z.unknown()),
  payments: z.array(qpayPayment).nullish(),
});
/** openapi.json `deleteInvoice` 200 (and what the refund answers): an empty object. */
export const qpayEmptyResponse = z.looseObject({});

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
