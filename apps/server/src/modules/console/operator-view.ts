import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.js';
import type { Deps } from '../../deps.js';
import type { OperatorRole } from './tables.js';
import './tables.js';

/** An operator as the console shows them, and the columns that make the view. */
export type Db = Kysely<Database>;
export type ConsoleDeps = Pick<Deps, 'db' | 'clock' | 'throttle'>;

export interface OperatorView {
  id: string;
  email: string;
  role: OperatorRole;
  disabled: boolean;
  setUp: boolean;
  createdAt: string;
  lastSignInAt: string | null;
}

export const operatorColumns = [
  'id',
  'email',
  'role',
  'disabled_at',
  'password_hash',
  'totp_secret',
  'created_at',
  'last_sign_in_at',
] as const;

type OperatorRow = {
  id: string;
  email: string;
  role: OperatorRole;
  disabled_at: Date | null;
  password_hash: string | null;
  totp_secret: string | null;
  created_at: Date;
  last_sign_in_at: Date | null;
};

export function toOperatorView(row: OperatorRow): OperatorView {
  return {
    id: row.id,
    email: row.email,
    role: row.role,
    disabled: row.disabled_at !== null,
    setUp: row.password_hash !== null && row.totp_secret !== null,
    createdAt: row.created_at.toISOString(),
    lastSignInAt: row.last_sign_in_at?.toISOString() ?? null,
  };
}
