import { randomUUID } from 'node:crypto';
import { GRANT_ERRORS, type TokenPair } from '@tunes/shared/accounts';
import { DAY_MS } from '@tunes/shared/constants';
import type { ApiErrorCode } from '@tunes/shared/error-codes';
import type { Deps } from '../../deps.js';
import { AppError } from '../../lib/errors.js';
import { randomToken, sha256 } from './secrets.js';

type TokenDeps = Pick<Deps, 'db' | 'clock' | 'config' | 'accessTokens' | 'revokedSessions'>;

/** A grant error of the token endpoint: `{ error, error_description, message, field? }` (api.md). */
export function grantError(
  status: number,
  code: ApiErrorCode,
  description: string,
  field?: string,
): AppError {
  return new AppError(status, code, description, {
    error_description: description,
    ...(field ? { field } : {}),
  });
}

/** Who is signing in, for the list of signed-in devices (sessions.ts). */
export interface SignInClient {
  userAgent?: string | undefined;
  address?: string | undefined;
}

/**
 * Issues an access token and a refresh token for a user. Without `familyId` this starts a new
 * sign-in (a new refresh-token family: one signed-in device); other modules and tests use it
 * to sign a user in.
 */
export async function issueTokenPair(
  deps: TokenDeps,
  userId: string,
  familyId: string = randomUUID(),
  client: SignInClient = {},
): Promise<TokenPair> {
  const now = deps.clock.now();
  const refresh = newRefreshToken(deps, now, client);
  await deps.db
    .insertInto('refresh_tokens')
    .values({ ...refresh.row, user_id: userId, family_id: familyId })
    .execute();
  return tokenPair(deps, now, userId, familyId, refresh.token);
}

/** A new refresh token of a sign-in, and its row but for whose and which sign-in it is. */
function newRefreshToken(deps: TokenDeps, now: Date, client: SignInClient) {
  const token = randomToken();
  return {
    token,
    row: {
      token_hash: sha256(token),
      user_agent: client.userAgent?.slice(0, 400) ?? null,
      client_address: client.address?.slice(0, 64) ?? null,
      expires_at: new Date(now.getTime() + deps.config.REFRESH_TOKEN_TTL_DAYS * DAY_MS),
      created_at: now,
    },
  };
}

/** The answer of a sign-in or a refresh: the refresh token, and an access token of the sign-in. */
async function tokenPair(
  deps: TokenDeps,
  now: Date,
  userId: string,
  familyId: string,
  refreshToken: string,
): Promise<TokenPair> {
  return {
    access_token: await deps.accessTokens.sign(userId, now.getTime(), familyId),
    refresh_token: refreshToken,
    token_type: 'Bearer',
    expires_in: deps.accessTokens.ttlSeconds,
  };
}

const invalidRefresh = () =>
  grantError(400, GRANT_ERRORS.invalidGrant, 'The refresh token is invalid or has expired.', 'refresh_token');

/**
 * Spends a refresh token and issues the next pair of its family (security.md). Presenting a token
 * that was already spent means it leaked: the whole family is revoked.
 */
export async function rotateRefreshToken(
  deps: TokenDeps,
  refreshToken: string,
  client: SignInClient = {},
): Promise<TokenPair> {
  const now = deps.clock.now();
  const next = newRefreshToken(deps, now, client);
  // Spending and issuing are one statement (one round trip, one commit), so a concurrent reuse
  // that revokes the family always sees (and revokes) the successor too.
  const spent = await deps.db
    .with('spent', (db) =>
      db
        .updateTable('refresh_tokens')
        .set({ used_at: now })
        .where('token_hash', '=', sha256(refreshToken))
        .where('used_at', 'is', null)
        .where('revoked_at', 'is', null)
        .where('expires_at', '>', now)
        .returning(['user_id', 'family_id']),
    )
    .insertInto('refresh_tokens')
    .columns([
      'token_hash',
      'user_id',
      'family_id',
      'user_agent',
      'client_address',
      'expires_at',
      'created_at',
    ])
    .expression((eb) =>
      eb
        .selectFrom('spent')
        .select([
          eb.val(next.row.token_hash).as('token_hash'),
          'spent.user_id',
          'spent.family_id',
          eb.cast<string | null>(eb.val(next.row.user_agent), 'text').as('user_agent'),
          eb.cast<string | null>(eb.val(next.row.client_address), 'text').as('client_address'),
          eb.cast<Date>(eb.val(next.row.expires_at), 'timestamptz').as('expires_at'),
          eb.cast<Date>(eb.val(next.row.created_at), 'timestamptz').as('created_at'),
        ]),
    )
    .returning(['user_id', 'family_id'])
    .executeTakeFirst();
  if (spent) return tokenPair(deps, now, spent.user_id, spent.family_id, next.token);

  const known = await deps.db
    .selectFrom('refresh_tokens')
    .select(['family_id', 'used_at'])
    .where('token_hash', '=', sha256(refreshToken))
    .executeTakeFirst();
  if (known?.used_at) await revokeFamily(deps, known.family_id);
  throw invalidRefresh();
}

type RevokeDeps = Pick<Deps, 'db' | 'clock' | 'accessTokens' | 'revokedSessions'>;

/** Which sign-ins to end: one (a family), or a user's, all or all but one. */
type SignIns = { familyId: string } | { userId: string; exceptFamilyId?: string | undefined };

/**
 * Ends sign-ins: their refresh tokens stop working at once, and their access tokens on every API
 * process within seconds (lib/revoked-sessions.ts). The sign-ins are recorded as ended before
 * their refresh tokens are revoked, so a call that fails half-way ends them all when made again.
 * Every sign-in not ended yet is recorded, however old: access tokens expire by the wall clock,
 * which a development clock moved ahead (POST /dev/clock) no longer tells from business time.
 */
async function endSignIns(deps: RevokeDeps, which: SignIns): Promise<void> {
  const now = deps.clock.now();
  let live = deps.db
    .selectFrom('refresh_tokens')
    .select('family_id')
    .distinct()
    .where('revoked_at', 'is', null);
  let revoke = deps.db.updateTable('refresh_tokens').set({ revoked_at: now }).where('revoked_at', 'is', null);
  if ('familyId' in which) {
    live = live.where('family_id', '=', which.familyId);
    revoke = revoke.where('family_id', '=', which.familyId);
  } else {
    live = live.where('user_id', '=', which.userId);
    revoke = revoke.where('user_id', '=', which.userId);
    if (which.exceptFamilyId) {
      live = live.where('family_id', '!=', which.exceptFamilyId);
      revoke = revoke.where('family_id', '!=', which.exceptFamilyId);
    }
  }
  const families = new Set((await live.execute()).map((row) => row.family_id));
  // Every access token of these sign-ins was issued by now, so none outlives this.
  const lastExpiry = new Date(now.getTime() + deps.accessTokens.ttlSeconds * 1000);
  await deps.revokedSessions.record(deps.db, [...families], lastExpiry);
  const revoked = await revoke.returning('family_id').execute();
  // A sign-in that began between the two statements is ended too.
  const late = new Set(revoked.map((row) => row.family_id).filter((family) => !families.has(family)));
  await deps.revokedSessions.record(deps.db, [...late], lastExpiry);
}

/** Ends one sign-in (logout, a device signed out, a reused refresh token). */
export async function revokeFamily(deps: RevokeDeps, familyId: string): Promise<void> {
  await endSignIns(deps, { familyId });
}

/** Signs the user out everywhere (after a password reset), or everywhere but `exceptFamilyId`. */
export async function revokeAllForUser(
  deps: RevokeDeps,
  userId: string,
  exceptFamilyId?: string,
): Promise<void> {
  await endSignIns(deps, { userId, exceptFamilyId });
}
