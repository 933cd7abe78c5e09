import { z } from 'zod';
import {
  dateOrTime,
  decimal,
  positiveAmount,
  qpayCurrency,
  qpayHttpUrl,
  qpayInvoiceStatus,
} from './qpay-contract.js';
import { qpayPayment } from './qpay-payment-contract.js';

/** QPay's invoice calls as the public description states them (qpay-contract.ts names it). */

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
