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
  save_card: ColumnType<boolean, boolean | undefined, boolean>;
  /** The token of the card kept for later charges, when the merchant asked to save it. */
  card_token: string | null;
}

/** A card the sandbox keeps for a merchant's later charges; the merchant only ever sees the token. */
export interface SandboxGatewayCardsTable {
  token: string;
  client_id: string;
  card_number: string;
  expires: string;
  created_at: ColumnType<Date, Date | string, Date | string>;
}

/** One charge of a saved card; at most one `paid` per invoice. */
export interface SandboxGatewayChargesTable {
  client_id: string;
  invoice_id: string;
  attempt: number;
  card_token: string;
  amount: number;
  currency: string;
  status: 'paid' | 'declined';
  created_at: ColumnType<Date, Date | string, Date | string>;
}

/** What an ordered fault makes a provider call answer (faults.ts). */
export type SandboxGatewayFaultKind = 'unavailable' | 'error' | 'slow';

/** Faults a test ordered: the next `remaining` calls of `call` (`*`: any) answer `kind`. */
export interface SandboxGatewayFaultsTable {
  call: string;
  remaining: number;
  kind: SandboxGatewayFaultKind;
  delay_ms: ColumnType<number, number | undefined, number>;
}

/** Partial refunds of one capture, each named by the merchant's refund_id (migration 2026120101). */
export interface SandboxGatewayRefundsTable {
  client_id: string;
  invoice_id: string;
  refund_id: string;
  /** Which capture: `session` (the card page's payment) or `charge:<attempt>`. */
  reference: string;
  amount: number;
  currency: string;
  created_at: ColumnType<Date, Date | string, Date | string>;
}

declare module '@tunes/server/db/schema' {
  interface Database {
    sandbox_gateway_faults: SandboxGatewayFaultsTable;
    sandbox_gateway_payments: SandboxGatewayPaymentsTable;
    sandbox_gateway_cards: SandboxGatewayCardsTable;
    sandbox_gateway_charges: SandboxGatewayChargesTable;
    sandbox_gateway_refunds: SandboxGatewayRefundsTable;
  }
}
