import type { Session } from '@tunes/shared/accounts';
import Bowser from 'bowser';
import { sql } from 'kysely';
import { prepared } from '../../db/prepared.js';
import type { Deps } from '../../deps.js';
import { notFound, unauthorized } from '../../lib/errors.js';
import { revokeAllForUser, revokeFamily } from './tokens.js';

type SessionDeps = Pick<Deps, 'db' | 'clock' | 'accessTokens' | 'revokedSessions'>;

/** "Chrome on Windows", "Safari on iOS (mobile)": what a listener recognises as their device. */
export function describeDevice(userAgent: string | null): string {
  if (!userAgent) return 'Unknown device';
  const parsed = Bowser.parse(userAgent);
  const browser = parsed.browser.name ?? 'A browser';
  const os = parsed.os.name ? ` on ${parsed.os.name}` : '';
  const kind = parsed.platform.type && parsed.platform.type !== 'desktop' ? ` (${parsed.platform.type})` : '';
  return `${browser}${os}${kind}`;
}

/** The address with its last part hidden: enough to recognise a place, not to pinpoint a home. */
export function maskAddress(address: string | null): string | null {
  if (!address) return null;
  if (address.includes(':')) return `${address.split(':').slice(0, 3).join(':')}:…`;
  return address.replace(/\.\d+$/, '.x');
}

/**
 * The user's signed-in devices: each live refresh-token family (product.md §14), newest use
 * first, with the device of its latest token.
 */
export async function listSessions(
  deps: SessionDeps,
  userId: string,
  currentSessionId: string | undefined,
): Promise<Session[]> {
  const now = deps.clock.now();
  const families = await deps.db
    .selectFrom('refresh_tokens')
    .select([
      'family_id',
      sql<Date>`min(created_at)`.as('signed_in_at'),
      sql<Date>`max(created_at)`.as('last_used_at'),
      sql<string | null>`(array_agg(user_agent order by created_at desc))[1]`.as('user_agent'),
      sql<string | null>`(array_agg(client_address order by created_at desc))[1]`.as('client_address'),
    ])
    .where('user_id', '=', userId)
    .groupBy('family_id')
    .having(sql<boolean>`bool_or(used_at is null and revoked_at is null and expires_at > ${now})`)
    .orderBy(sql`max(created_at)`, 'desc')
    .execute();
  return families.map((family) => ({
    id: family.family_id,
    device: describeDevice(family.user_agent),
    address: maskAddress(family.client_address),
    signedInAt: new Date(family.signed_in_at).toISOString(),
    lastUsedAt: new Date(family.last_used_at).toISOString(),
    current: family.family_id === currentSessionId,
  }));
}

/** Signs one of the user's devices out: its refresh token stops working at once. */
export async function endSession(deps: SessionDeps, userId: string, sessionId: string): Promise<void> {
  const owned = await deps.db
    .selectFrom('refresh_tokens')
    .select('family_id')
    .where('user_id', '=', userId)
    .where('family_id', '=', sessionId)
    .limit(1)
    .executeTakeFirst();
  if (!owned) throw notFound('There is no such signed-in device.');
  await revokeFamily(deps, sessionId);
}

const selectLiveToken = prepared((db: SessionDeps['db'], args: { sessionId: string }) =>
  db
    .selectFrom('refresh_tokens')
    .select('family_id')
    .where('family_id', '=', args.sessionId)
    .where('revoked_at', 'is', null)
    .limit(1),
);

/**
 * Refuses (401) the access token of a sign-in that has ended: its refresh-token family was
 * revoked (logout, signed out from another device, a password change, a reused refresh token).
 * A token from no sign-in (development tools) passes. Used on every write (plugins/auth.ts).
 */
export async function assertSessionLive(
  deps: Pick<Deps, 'db'>,
  sessionId: string | undefined,
): Promise<void> {
  if (!sessionId) return;
  const [live] = await selectLiveToken(deps.db, { sessionId });
  if (!live) throw unauthorized('This sign-in has ended.');
}

/** Signs this device out: the sign-in its access token belongs to, if it came from one. */
export async function endCurrentSession(deps: SessionDeps, sessionId: string | undefined): Promise<void> {
  if (sessionId) await revokeFamily(deps, sessionId);
}

/** Signs every device out but the one asking. */
export async function endOtherSessions(
  deps: SessionDeps,
  userId: string,
  currentSessionId: string | undefined,
): Promise<void> {
  await revokeAllForUser(deps, userId, currentSessionId);
}
