import type { ColumnType, Generated } from 'kysely';

type Json = ColumnType<unknown, string | undefined | null, string | null>;

/** product.md §3 "Payment log record", one row per step of a payment. */
export interface PaymentLogsTable {
  id: Generated<number>;
  order_number: string;
  user_id: string | null;
  subscriber_name: Generated<string>;
  package_name: Generated<string>;
  purchase_price: number | null;
  current_process: string;
  type: string;
  message: string;
  request: Json;
  response: Json;
  created_at: ColumnType<Date, Date | string | undefined, never>;
}

declare module '../../db/schema.js' {
  interface Database {
    payment_logs: PaymentLogsTable;
  }
}
