import type { ColumnType } from 'kysely';

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

/** One try to pay a QPay invoice from a bank app; at most one PAID per invoice, REFUNDED once given back. */
export interface SandboxQpayPaymentsTable {
  payment_id: string;
  invoice_id: string;
  bank: string;
  status: 'PAID' | 'FAILED' | 'REFUNDED';
  amount: number;
  created_at: Timestamp;
}

declare module '../../db/schema.js' {
  interface Database {
    sandbox_qpay_tokens: SandboxQpayTokensTable;
    sandbox_qpay_invoices: SandboxQpayInvoicesTable;
    sandbox_qpay_payments: SandboxQpayPaymentsTable;
  }
}
