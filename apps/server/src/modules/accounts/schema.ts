import type { ColumnType, Generated } from 'kysely';

type Timestamp = ColumnType<Date, Date, Date>;
type NullableTimestamp = ColumnType<Date | null, Date | null | undefined, Date | null>;

/** A one-time code sent to a number or address; only its HMAC is stored. */
export interface OtpCodesTable {
  id: Generated<string>;
  /** Full msisdn or lower-case e-mail. */
  target: string;
  code_hash: string;
  expires_at: Timestamp;
  validated_at: NullableTimestamp;
  consumed_at: NullableTimestamp;
  created_at: Timestamp;
}

/** Opaque refresh tokens; each use spends one and issues the next of the same family. */
export interface RefreshTokensTable {
  id: Generated<string>;
  token_hash: string;
  user_id: string;
  family_id: string;
  /** The device that signed in or refreshed with this token (sessions.ts). */
  user_agent: string | null;
  client_address: string | null;
  expires_at: Timestamp;
  used_at: NullableTimestamp;
  revoked_at: NullableTimestamp;
  created_at: Timestamp;
}

export interface PasswordResetsTable {
  token_hash: string;
  user_id: string;
  expires_at: Timestamp;
  used_at: NullableTimestamp;
  created_at: Timestamp;
}

/** Silent-login tokens already used once (product.md §11: usable once). */
export interface SpentHmacTokensTable {
  signature: string;
  user_id: string;
  spent_at: Timestamp;
}

declare module '../../db/schema.js' {
  interface Database {
    otp_codes: OtpCodesTable;
    refresh_tokens: RefreshTokensTable;
    password_resets: PasswordResetsTable;
    spent_hmac_tokens: SpentHmacTokensTable;
  }
}
