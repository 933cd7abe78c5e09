import { z } from 'zod';
import {
  dateTime,
  decimal,
  qpayCurrency,
  qpayObjectType,
  qpayPaymentStatus,
  transactionType,
} from './qpay-contract.js';

/** QPay's payment calls as the public description states them (qpay-contract.ts names it). */

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
