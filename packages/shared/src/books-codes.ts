/**
 * What the books check (server `billing/books-check.ts`) can find wrong, without schemas: the
 * console names each kind in its own language.
 */
export const BOOKS_MISMATCH_KINDS = [
  // The ledger against the invoices.
  'paid_without_capture',
  'capture_total_differs',
  'two_applied_captures',
  'refund_status_differs',
  'capture_on_unpaid_invoice',
  'over_refunded',
  'refund_without_capture',
  'surplus_not_refunded',
  // The ledger against the providers.
  'capture_missing',
  'capture_unknown',
  'capture_amount_differs',
  'refund_differs',
  // The ledger against the periods.
  'access_without_payment',
  'capture_without_period',
] as const;

export type BooksMismatchKind = (typeof BOOKS_MISMATCH_KINDS)[number];

/** One thing the books check found wrong; `detail` is for operators, in English. */
export interface BooksMismatch {
  kind: BooksMismatchKind;
  invoiceId?: string;
  subscriptionId?: string;
  detail: string;
}

/** An invoice a provider could not be asked about: not a mismatch, but not checked either. */
export interface BooksUnchecked {
  invoiceId: string;
  detail: string;
}

/** A stored check, as `GET /api/admin/books` and `GET /dev/books` answer it. */
export interface BooksReport {
  startedAt: string;
  finishedAt: string;
  /** Only invoices touched since then were checked; null for all of them. */
  since: string | null;
  trigger: 'job' | 'command' | 'console' | 'dev';
  /** Invoices whose providers were asked. */
  invoicesAsked: number;
  mismatches: BooksMismatch[];
  unchecked: BooksUnchecked[];
  /** More mismatches than a report keeps were found; the first ones are listed. */
  truncated: boolean;
}
