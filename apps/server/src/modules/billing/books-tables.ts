import type { BooksReport } from '@tunes/shared/books-codes';
import type { ColumnType, Generated } from 'kysely';

type Timestamp = ColumnType<Date, Date | string, Date | string>;
type NullableTimestamp = ColumnType<Date | null, Date | string | null | undefined, Date | string | null>;

/** Migration 2026120110: one row per books check (books-store.ts). */
export interface BooksChecksTable {
  id: Generated<string>;
  trigger: BooksReport['trigger'];
  started_at: Timestamp;
  finished_at: Timestamp;
  since: NullableTimestamp;
  providers_since: NullableTimestamp;
  providers_after: string | null;
  /** When the job's sweep of the providers this run belongs to began (its own start, if it began one). */
  sweep_started_at: Timestamp;
  invoices_asked: number;
  mismatch_count: number;
  /** `{ mismatches, unchecked, truncated }` as JSON text in, parsed out. */
  report: ColumnType<unknown, string, string>;
  /** A job run that read as many changes as it may: the next scan goes on (books-changes.ts). */
  changes_left: ColumnType<boolean, boolean | undefined, boolean>;
  /** When the providers were last asked by the job (a run that only read changes keeps it). */
  providers_asked_at: NullableTimestamp;
}

/** Migration 202612170720p: what changed since the job last looked, written by triggers. */
export interface BooksChangesTable {
  id: Generated<string>;
  invoice_id: string | null;
  subscription_id: string | null;
  ledger_id: string | null;
}

declare module '../../db/schema.js' {
  interface Database {
    books_checks: BooksChecksTable;
    books_changes: BooksChangesTable;
  }
}
