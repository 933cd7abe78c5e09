import type { QPAY_DOCUMENTED_PAYMENT_STATUSES } from '@tunes/server/modules/providers/qpay-contract';
import type { ColumnType } from 'kysely';

type QpayPaymentStatus = (typeof QPAY_DOCUMENTED_PAYMENT_STATUSES)[number];

type Timestamp = ColumnType<Date, Date | string, Date | string>;

export interface SandboxQpayTokensTable {
  token: string;
  kind: 'access' | 'refresh';
  client_id: string;
  expires_at: Timestamp;
}

export type SandboxQpayInvoiceStatus = 'OPEN' | 'PAID' | 'CANCELLED';

export interface SandboxQpayInvoicesTable {
  id: string;
  client_id: string;
  invoice_code: string;
  sender_invoice_no: string;
  receiver_code: string;
  description: string;
  amount: number;
  callback_url: string;
  status: ColumnType<
    SandboxQpayInvoiceStatus,
    SandboxQpayInvoiceStatus | undefined,
    SandboxQpayInvoiceStatus
  >;
  created_at: Timestamp;
}

/**
 * One try to pay a QPay invoice from a bank app, in QPay's documented payment statuses: at most
 * one PAID per invoice, REFUND once given back (rows of older data may say REFUNDED).
 */
export interface SandboxQpayPaymentsTable {
  payment_id: string;
  invoice_id: string;
  bank: string;
  status: QpayPaymentStatus | 'REFUNDED';
  amount: number;
  created_at: Timestamp;
}

/** Faults a test ordered (faults.ts): the next `remaining` calls of `call` (`*`: any) answer `kind`. */
export interface SandboxQpayFaultsTable {
  call: string;
  remaining: number;
  kind: 'unavailable' | 'error' | 'slow';
  delay_ms: ColumnType<number, number | undefined, number>;
  /** The row `approval`: the status (and amount) the next bank-app approval records. */
  status: ColumnType<
    QpayPaymentStatus | null,
    QpayPaymentStatus | null | undefined,
    QpayPaymentStatus | null
  >;
  amount: ColumnType<number | null, number | null | undefined, number | null>;
}

declare module '@tunes/server/db/schema' {
  interface Database {
    sandbox_qpay_faults: SandboxQpayFaultsTable;
    sandbox_qpay_tokens: SandboxQpayTokensTable;
    sandbox_qpay_invoices: SandboxQpayInvoicesTable;
    sandbox_qpay_payments: SandboxQpayPaymentsTable;
  }
}
