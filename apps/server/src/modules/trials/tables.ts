import type { TrialMethod } from '@tunes/shared/trials';
import type { ColumnType, Generated } from 'kysely';

type Timestamp = ColumnType<Date, Date | string, Date | string>;
type NullableTimestamp = ColumnType<Date | null, Date | string | null | undefined, Date | string | null>;

/**
 * `pending`: a card trial's save-card page is open; `started`: the free days run (or ran);
 * `refused`: the card (or the person) had a trial; `declined`/`cancelled`: the save-card page
 * ended without a card.
 */
export type TrialStatus = 'pending' | 'started' | 'refused' | 'declined' | 'cancelled';

/** One trial asked for (migration 202612180810t). */
export interface TrialsTable {
  id: Generated<string>;
  user_id: string;
  package_id: number;
  method: TrialMethod;
  status: TrialStatus;
  days: number;
  reference: string | null;
  refusal: string | null;
  subscription_id: string | null;
  started_at: NullableTimestamp;
  ends_at: NullableTimestamp;
  created_at: Timestamp;
}

/** One key (account, number, card) that had a trial: its primary key gives the trial once. */
export interface TrialClaimsTable {
  key: string;
  trial_id: string;
  created_at: Timestamp;
}

declare module '../../db/schema.js' {
  interface Database {
    trials: TrialsTable;
    trial_claims: TrialClaimsTable;
  }
}
