import type { OperatorRole } from '@tunes/shared/console';
import type { ColumnType, Generated } from 'kysely';

export type { OperatorRole };

type Timestamp = ColumnType<Date, Date | string, Date | string>;
type NullableTimestamp = ColumnType<Date | null, Date | string | null | undefined, Date | string | null>;
type Json = ColumnType<unknown, string | null | undefined, string | null>;

/** Migration 2026113000: the operator console (docs/console-api.md). */
declare module '../../db/schema.js' {
  interface Database {
    operators: {
      id: Generated<string>;
      email: string;
      role: OperatorRole;
      password_hash: string | null;
      totp_secret: string | null;
      totp_last_step: ColumnType<string | null, number | string | null | undefined, number | string | null>;
      disabled_at: NullableTimestamp;
      created_at: Timestamp;
      last_sign_in_at: NullableTimestamp;
    };
    operator_setup_links: {
      token_hash: string;
      operator_id: string;
      expires_at: Timestamp;
      used_at: NullableTimestamp;
      pending_totp_secret: string | null;
      created_at: Timestamp;
    };
    operator_sessions: {
      token_hash: string;
      operator_id: string;
      created_at: Timestamp;
      last_seen_at: Timestamp;
      expires_at: Timestamp;
      ended_at: NullableTimestamp;
    };
    operator_audit: {
      id: Generated<string>;
      operator_id: string;
      action: string;
      target_type: string;
      target_id: string | null;
      before: Json;
      after: Json;
      created_at: Timestamp;
    };
    content_drafts: {
      id: number;
      document: ColumnType<unknown, string, string>;
      updated_at: Timestamp;
    };
    voucher_batches: {
      id: Generated<string>;
      package_id: number;
      days: number;
      count: number;
      /** Null: the codes never expire (a command-line batch without `--expires`). */
      expires_at: NullableTimestamp;
      note: string | null;
      /** Null: made on the command line (migration 202612170740v). */
      created_by: string | null;
      created_at: Timestamp;
    };
    /** Migration 2026120102: one row per console refund, at most one `pending` (the claim) per invoice. */
    payment_refunds: {
      /** `operator:<uuid>`: the key the provider knows the refund by (`opening:<invoice>` before). */
      refund_id: string;
      invoice_id: string;
      /** The ledger capture it gives back (null for refunds made before the ledger). */
      capture_id: string | null;
      amount: number;
      currency: string;
      reason: string;
      status: 'pending' | 'done';
      operator_id: string;
      created_at: Timestamp;
      refunded_at: NullableTimestamp;
    };
  }
}
