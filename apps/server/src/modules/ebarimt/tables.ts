import type { ColumnType } from 'kysely';

type Timestamp = ColumnType<Date, Date | string, Date | string>;
type NullableTimestamp = ColumnType<Date | null, Date | string | null | undefined, Date | string | null>;

export type ReceiptKind = 'citizen' | 'company';
/**
 * `pending` → `issuing` (claimed) → `issued`; a citizen receipt a company one replaced before it
 * was issued is `superseded`, after it was issued `void_pending` → `voiding` → `voided`. A refund
 * takes back either kind the same way (receipt-once.ts `voidInvoiceReceipts`).
 */
export type ReceiptStatus =
  | 'pending'
  | 'issuing'
  | 'issued'
  | 'superseded'
  | 'void_pending'
  | 'voiding'
  | 'voided';

/** An invoice's e-barimt: one per invoice and kind (the primary key), issued once. */
export interface EbarimtReceiptsTable {
  invoice_id: string;
  kind: ReceiptKind;
  status: ColumnType<ReceiptStatus, ReceiptStatus | undefined, ReceiptStatus>;
  company_registry: string | null;
  company_tin: string | null;
  company_name: string | null;
  attempts: ColumnType<number, number | undefined, number>;
  next_attempt_at: NullableTimestamp;
  bill_id: string | null;
  lottery: string | null;
  qr_data: string | null;
  receipt_date: string | null;
  issued_at: NullableTimestamp;
  last_error: string | null;
  /** PosAPI's bill id suffix (6 digits, unique within a day), taken when first claimed. */
  bill_suffix: string | null;
  created_at: Timestamp;
}

declare module '../../db/schema.js' {
  interface Database {
    ebarimt_receipts: EbarimtReceiptsTable;
  }
}
