import type { InvoiceKind, PaymentMethod } from '@tunes/shared/billing';
import type { InvoiceStatus } from '@tunes/shared/premium-rules';
import type { ColumnType, Generated } from 'kysely';

type Timestamp = ColumnType<Date, Date | string, Date | string>;
type NullableTimestamp = ColumnType<Date | null, Date | string | null | undefined, Date | string | null>;

/** One checkout attempt; `amount` is the plan's Cost when the invoice was made. */
export interface PaymentInvoicesTable {
  invoice_id: string;
  user_id: string;
  package_id: number;
  amount: number;
  currency: string;
  status: ColumnType<InvoiceStatus, InvoiceStatus | undefined, InvoiceStatus>;
  provider_token: string | null;
  subscription_id: string | null;
  created_at: Timestamp;
  settled_at: NullableTimestamp;
  kind: ColumnType<InvoiceKind, InvoiceKind | undefined, InvoiceKind>;
  method: ColumnType<PaymentMethod, PaymentMethod | undefined, PaymentMethod>;
  /** The shopper asked to keep the card for renewals. */
  save_card: Generated<boolean>;
  /** `renewal:<subscription>:<period start>`, `change:…`: one invoice, so one charge, per key. */
  idempotency_key: string | null;
  /** The period a renewal pays for, or the rest of the period an upgrade pays for. */
  period_start: NullableTimestamp;
  period_end: NullableTimestamp;
  charge_attempts: Generated<number>;
  card_brand: string | null;
  card_last4: string | null;
  /** The company the e-barimt goes to (registry number, taxpayer number, name), if one was chosen. */
  ebarimt_registry: string | null;
  ebarimt_tin: string | null;
  ebarimt_company: string | null;
  /** When the card page's session was closed at the gateway, so nobody can pay it afterwards. */
  card_voided_at: NullableTimestamp;
  /** The offer redemption it is priced with (modules/offers), and what that took off `amount`. */
  offer_redemption_id: ColumnType<string | null, string | null | undefined, string | null>;
  discount: ColumnType<number, number | undefined, number>;
}

/** The QPay invoice opened for one of ours: what the shopper scans or taps, kept for a reload. */
export interface QpayInvoicesTable {
  invoice_id: string;
  qpay_invoice_id: string;
  qr_text: string;
  qr_image: string;
  short_url: string;
  deeplinks: ColumnType<unknown, string, string>;
  created_at: Timestamp;
  cancelled_at: NullableTimestamp;
  /** What QPay last said PARTIAL payments took while nothing was paid in full (qpay-payments.ts). */
  partly_paid: ColumnType<number, number | undefined, number>;
}

export type LedgerEntry = 'capture' | 'refund' | 'void';
export type LedgerMethod = 'card' | 'qpay' | 'voucher' | 'extension';

/**
 * One capture, refund or void at a provider, or value given without money (premium/ledger.ts).
 * Written in the transaction that changes its invoice; never updated.
 */
export interface PaymentLedgerTable {
  id: Generated<string>;
  invoice_id: string | null;
  subscription_id: string | null;
  entry: LedgerEntry;
  method: LedgerMethod;
  reference: string;
  amount: number;
  currency: string;
  outcome: 'applied' | 'surplus' | null;
  reason: string | null;
  refund_of: string | null;
  created_at: Timestamp;
}

export interface CacheItemsTable {
  user_id: string;
  key: string;
  value: string;
  updated_at: ColumnType<Date, Date | string | undefined, Date | string>;
}

/** The card kept for renewals: the gateway's token and what the shopper may see of the card. */
export interface SavedCardsTable {
  user_id: string;
  provider_token: string;
  brand: string;
  last4: string;
  expires: string | null;
  saved_at: ColumnType<Date, Date | string, Date | string>;
}

/** Keys of the Premium messages already sent (notices.ts): `reminder:<subscription>:<period end>`, … */
export interface BillingNoticesTable {
  key: string;
  created_at: ColumnType<Date, Date | string, never>;
}

declare module '../../db/schema.js' {
  interface Database {
    payment_invoices: PaymentInvoicesTable;
    payment_ledger: PaymentLedgerTable;
    qpay_invoices: QpayInvoicesTable;
    cache_items: CacheItemsTable;
    saved_cards: SavedCardsTable;
    billing_notices: BillingNoticesTable;
  }
}
