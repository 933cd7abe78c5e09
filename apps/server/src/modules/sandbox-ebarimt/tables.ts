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

/** Outages a test ordered: the next `remaining` receipt requests fail. */
export interface SandboxEbarimtOutagesTable {
  id: number;
  remaining: number;
}

declare module '../../db/schema.js' {
  interface Database {
    sandbox_ebarimt_receipts: SandboxEbarimtReceiptsTable;
    sandbox_ebarimt_outages: SandboxEbarimtOutagesTable;
  }
}
