import { formatPhoneForDisplay } from '@tunes/shared/validation';
import type { ColumnType } from 'kysely';
import type { Deps } from '../../deps.js';
import type { ErrorLog } from '../../lib/logging.js';
import { languageOf } from '../../lib/message-language.js';
import { sendToAccount } from '../notifications/send-to-account.js';
import { familyMessages } from './messages.js';
import './tables.js';

export type DepartureReason = 'removed' | 'left';

/** A member's place on someone else's plan that ended (migration 202612170720l). */
export interface FamilyDeparturesTable {
  user_id: string;
  subscription_id: string;
  reason: DepartureReason;
  ended_at: ColumnType<Date, Date | string, Date | string>;
}

declare module '../../db/schema.js' {
  interface Database {
    family_departures: FamilyDeparturesTable;
  }
}

/**
 * Records, in the transaction that takes the seat, that the member's Premium through the plan
 * ended now: their profile then says when it ended (accounts/users.ts), not that they never had it.
 */
export async function recordDeparture(
  db: Deps['db'],
  departure: { userId: string; subscriptionId: string; reason: DepartureReason; now: Date },
): Promise<void> {
  await db
    .insertInto('family_departures')
    .values({
      user_id: departure.userId,
      subscription_id: departure.subscriptionId,
      reason: departure.reason,
      ended_at: departure.now,
    })
    .execute();
}

/**
 * Tells a member the owner took off the plan (issue 37: they were never told), in their language,
 * on their number or else their address, with the way to Premium of their own.
 */
export async function tellRemovedMember(
  deps: Pick<Deps, 'db' | 'clock' | 'config'>,
  memberId: string,
  ownerId: string,
  log?: ErrorLog,
): Promise<void> {
  const [member, owner] = await Promise.all(
    [memberId, ownerId].map((id) =>
      deps.db
        .selectFrom('users')
        .select(['first_name', 'phone_number', 'primary_email', 'language'])
        .where('id', '=', id)
        .where('deleted_at', 'is', null)
        .executeTakeFirst(),
    ),
  );
  if (!member) return;
  const lang = languageOf(member.language);
  const who =
    owner?.first_name.trim() || (owner?.phone_number ? formatPhoneForDisplay(owner.phone_number) : null);
  const link = `${deps.config.PUBLIC_URL}/premium`;
  const text = familyMessages.memberRemoved(lang, who, link);
  if (member.phone_number) {
    await sendToAccount(deps, memberId, { channel: 'sms', to: member.phone_number, text, link }, log);
  } else if (member.primary_email) {
    const subject = familyMessages.memberRemovedSubject(lang);
    await sendToAccount(
      deps,
      memberId,
      { channel: 'email', to: member.primary_email, subject, text, link },
      log,
    );
  }
}
