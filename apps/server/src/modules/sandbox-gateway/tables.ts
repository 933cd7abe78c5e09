import type { ColumnType } from 'kysely';

export type SandboxPaymentStatus = 'pending' | 'paid' | 'declined' | 'cancelled';

export interface SandboxGatewayPaymentsTable {
  token: string;
  client_id: string;
  invoice_id: string;
  amount: number;
  currency: string;
  description: string;
  language_code: string;
  redirect_url: string;
  callback_url: string | null;
  status: ColumnType<SandboxPaymentStatus, SandboxPaymentStatus | undefined, SandboxPaymentStatus>;
  card_last4: string | null;
  created_at: ColumnType<Date, Date | string, Date | string>;
  settled_at: ColumnType<Date | null, Date | string | null | undefined, Date | string | null>;
}

declare module '../../db/schema.js' {
  interface Database {
    sandbox_gateway_payments: SandboxGatewayPaymentsTable;
  }
}
