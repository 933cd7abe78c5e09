import type { ColumnType } from 'kysely';

/** A receipt the sandbox PosAPI issued. */
export interface SandboxEbarimtReceiptsTable {
  id: string;
  type: string;
  merchant_tin: string;
  customer_tin: string | null;
  total_amount: ColumnType<string, number, number>;
  total_vat: ColumnType<string, number, number>;
  lottery: string | null;
  date: string;
  voided: ColumnType<boolean, boolean | undefined, boolean>;
  created_at: ColumnType<Date, Date | string, Date | string>;
}

/** What an ordered fault makes a receipt request answer (routes.ts `POST /test/outages`). */
export type SandboxEbarimtFaultKind = 'unavailable' | 'error' | 'payment' | 'slow';

/** Faults a test ordered: the next `remaining` receipt requests answer `kind` after `delay_ms`. */
export interface SandboxEbarimtOutagesTable {
  id: number;
  remaining: number;
  kind: ColumnType<SandboxEbarimtFaultKind, SandboxEbarimtFaultKind | undefined, SandboxEbarimtFaultKind>;
  delay_ms: ColumnType<number, number | undefined, number>;
}

declare module '@tunes/server/db/schema' {
  interface Database {
    sandbox_ebarimt_receipts: SandboxEbarimtReceiptsTable;
    sandbox_ebarimt_outages: SandboxEbarimtOutagesTable;
  }
}
