import { AppError } from '@tunes/server/lib/errors';
import type { QpayErrorKey } from '@tunes/server/modules/providers/qpay-contract';
import type { FastifyError, FastifyReply, FastifyRequest } from 'fastify';
import { hasZodFastifySchemaValidationErrors } from 'fastify-type-provider-zod';
import type { Selectable } from 'kysely';
import { findBank } from './banks.js';
import type { SandboxQpayInvoicesTable, SandboxQpayPaymentsTable } from './tables.js';

/**
 * What the sandbox's merchant API answers, in the shapes of QPay's description
 * (the server's providers/qpay-contract.ts): its invoices, payment rows and refusals.
 */

const money = (amount: number) => `${amount}.00`;

type StoredStatus = SandboxQpayPaymentsTable['status'];
/** Rows written before the sandbox followed the description say REFUNDED; QPay says REFUND. */
const documented = (status: StoredStatus): Exclude<StoredStatus, 'REFUNDED'> =>
  status === 'REFUNDED' ? 'REFUND' : status;

/** One sandbox payment as QPay's `payment/check` row (schemas.py Payment) tells it. */
export function paymentAnswer(row: Selectable<SandboxQpayPaymentsTable>) {
  const bank = findBank(row.bank);
  const status = documented(row.status);
  const tookMoney = status !== 'NEW' && status !== 'FAILED';
  return {
    payment_id: row.payment_id,
    payment_status: status,
    // Not in schemas.py Payment (PaymentGetResponse names it); the adapter reads it when present.
    payment_date: row.created_at.toISOString(),
    payment_amount: money(row.amount),
    trx_fee: '0.00',
    payment_currency: 'MNT' as const,
    payment_wallet: bank?.name ?? row.bank,
    payment_type: 'P2P' as const,
    card_transactions: [],
    p2p_transactions: tookMoney
      ? [
          {
            transaction_bank_code: bank?.code ?? '100000',
            account_bank_code: '050000',
            account_bank_name: 'Khan bank',
            account_number: '5000000000',
            status: 'SUCCESS',
            amount: money(row.amount),
            currency: 'MNT' as const,
            settlement_status: 'PENDING',
          },
        ]
      : [],
  };
}

/** An invoice as `GET /v2/invoice/{id}` (schemas.py InvoiceGetResponse) tells it: PAID and CANCELLED are CLOSED. */
export function invoiceAnswer(
  invoice: Selectable<SandboxQpayInvoicesTable>,
  payments: Selectable<SandboxQpayPaymentsTable>[],
) {
  return {
    invoice_id: invoice.id,
    invoice_status: invoice.status === 'OPEN' ? ('OPEN' as const) : ('CLOSED' as const),
    sender_invoice_no: invoice.sender_invoice_no,
    invoice_description: invoice.description,
    allow_partial: false,
    total_amount: money(invoice.amount),
    gross_amount: money(invoice.amount),
    tax_amount: '0.00',
    surcharge_amount: '0.00',
    callback_url: invoice.callback_url,
    inputs: [],
    payments: payments.map(paymentAnswer),
  };
}

/** One payment as `payment/list` (schemas.py PaymentList) tells it. */
export function paymentListAnswer(row: Selectable<SandboxQpayPaymentsTable> & { description: string }) {
  return {
    payment_id: row.payment_id,
    payment_date: row.created_at.toISOString(),
    payment_status: documented(row.status),
    payment_fee: '0.00',
    payment_amount: money(row.amount),
    payment_currency: 'MNT' as const,
    payment_wallet: findBank(row.bank)?.name ?? row.bank,
    payment_name: row.description,
    payment_description: row.description,
    paid_by: 'P2P' as const,
    object_type: 'INVOICE' as const,
    object_id: row.invoice_id,
  };
}

/** The request field a refusal names, and QPay's key for it (error.py); any other is VALIDATION_ERROR. */
const FIELD_KEYS: Record<string, QpayErrorKey> = {
  invoice_code: 'INVOICE_CODE_INVALID',
  amount: 'INVALID_AMOUNT',
  object_type: 'INVALID_OBJECT_TYPE',
  object_id: 'OBJECT_DATA_ERROR',
};

/** QPay's error shape (qpay-contract.ts): the key in `error` and in `message`, the reason in `details`. */
function sendQpayError(
  reply: FastifyReply,
  status: number,
  key: string,
  description: string,
  field?: unknown,
) {
  return reply.code(status).send({
    error: key,
    message: key,
    details: { description, ...(typeof field === 'string' ? { field } : {}) },
  });
}

/**
 * The merchant API's one error path: a refusal ordered by a handler (AppError), a request the
 * description's schemas refuse (400, keyed by its first field), any other client error, or the
 * sandbox's own failure (500) — all in QPay's shape.
 */
export function qpayErrorHandler(
  error: FastifyError | AppError,
  request: FastifyRequest,
  reply: FastifyReply,
) {
  if (error instanceof AppError) {
    return sendQpayError(reply, error.statusCode, error.code, error.message, error.extra.field);
  }
  if (hasZodFastifySchemaValidationErrors(error)) {
    const [first] = error.validation;
    const field =
      first?.instancePath.replace(/^\//, '').replaceAll('/', '.') || error.validationContext || 'body';
    const key = FIELD_KEYS[field.split('.')[0] ?? ''] ?? 'VALIDATION_ERROR';
    return sendQpayError(reply, 400, key, `${field}: ${first?.message ?? 'is invalid'}`, field);
  }
  const status = typeof error.statusCode === 'number' ? error.statusCode : 500;
  if (status >= 400 && status < 500) return sendQpayError(reply, status, 'VALIDATION_ERROR', error.message);
  request.log.error({ err: error }, 'sandbox qpay failed');
  return sendQpayError(reply, 500, 'INTERNAL_ERROR', 'The sandbox failed.');
}
