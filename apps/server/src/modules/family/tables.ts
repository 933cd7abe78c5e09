import type { ColumnType } from 'kysely';

/** A link an owner shares; joins one member, lives 5 days (migration 2026112500). */
export interface InvitationCodesTable {
  code: string;
  subscription_id: string;
  created_at: ColumnType<Date, Date, never>;
  expires_at: ColumnType<Date, Date, Date>;
  used_by: string | null;
  used_at: ColumnType<Date | null, Date | null | undefined, Date | null>;
}

declare module '../../db/schema.js' {
  interface Database {
    invitation_codes: InvitationCodesTable;
  }
}
