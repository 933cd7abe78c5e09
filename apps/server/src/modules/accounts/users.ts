import type { LoginInfo } from '@tunes/shared/accounts';
import type { Profile } from '@tunes/shared/profile';
import { type Kysely, sql } from 'kysely';
import { prepared } from '../../db/prepared.js';
import type { Database, User } from '../../db/schema.js';
import { badRequest, conflict, notFound } from '../../lib/errors.js';
import type { Lang } from '../../lib/message-language.js';
import {
  type SubscriptionRow,
  toSubscriptionViews,
  userSubscriptionsQuery,
} from '../subscriptions/queries.js';

type Db = Kysely<Database>;

/** Postgres unique violation: two requests created the same account at once. */
export const isUniqueViolation = (error: unknown) => (error as { code?: string }).code === '23505';

export async function findUserByMsisdn(db: Db, msisdn: string): Promise<User | undefined> {
  return db.selectFrom('users').selectAll().where('phone_number', '=', msisdn).executeTakeFirst();
}

export async function emailInUse(db: Db, email: string, exceptUserId?: string): Promise<boolean> {
  let query = db
    .selectFrom('users')
    .select('id')
    .where((eb) => eb.or([eb('primary_email', '=', email), eb('username', '=', email)]));
  if (exceptUserId) query = query.where('id', '!=', exceptUserId);
  return Boolean(await query.executeTakeFirst());
}

/** The account a password sign-in names: by e-mail, login name or full phone number. */
export async function findUserForLogin(db: Db, username: string): Promise<User | undefined> {
  return db
    .selectFrom('users')
    .selectAll()
    .where((eb) =>
      eb.or([
        eb('username', '=', username),
        eb('primary_email', '=', username),
        eb('phone_number', '=', username),
      ]),
    )
    .orderBy('created_at')
    .limit(1)
    .executeTakeFirst();
}

export interface NewMobileUser {
  msisdn: string;
  countryCode: number;
  /** The site's language at sign-up: every message to the account is written in it. */
  language: Lang;
}

export async function createMobileUser(
  db: Db,
  { msisdn, countryCode, language }: NewMobileUser,
): Promise<User> {
  try {
    return await db
      .insertInto('users')
      .values({
        username: msisdn,
        phone_number: msisdn,
        country_code: countryCode,
        iso2_country_code: countryCode === 976 ? 'MN' : null,
        language,
        is_verified: true,
      })
      .returningAll()
      .executeTakeFirstOrThrow();
  } catch (error) {
    if (isUniqueViolation(error)) throw conflict('This phone number is already registered.');
    throw error;
  }
}

export interface NewEmailUser {
  email: string;
  passwordHash: string;
  country: string;
  /** The site's language at sign-up: every message to the account is written in it. */
  language: Lang;
}

export async function createEmailUser(db: Db, input: NewEmailUser): Promise<User> {
  try {
    return await db
      .insertInto('users')
      .values({
        username: input.email,
        primary_email: input.email,
        password_hash: input.passwordHash,
        iso2_country_code: input.country,
        language: input.language,
        is_verified: true,
      })
      .returningAll()
      .executeTakeFirstOrThrow();
  } catch (error) {
    if (isUniqueViolation(error))
      throw conflict('This email address is already associated with another account.');
    throw error;
  }
}

const selectUser = prepared((db: Db, args: { userId: string }) =>
  db.selectFrom('users').selectAll().where('id', '=', args.userId).where('deleted_at', 'is', null),
);

export async function getUser(db: Db, userId: string): Promise<User> {
  const [user] = await selectUser(db, { userId });
  if (!user) throw notFound('The user does not exist.');
  return user;
}

/**
 * The user's profile columns with each subscription they hold (one row per subscription, one
 * row with null subscription columns for none): a single round trip, as the profile is the
 * busiest authenticated call and each round trip to the database costs more than its query.
 */
const selectProfileRows = prepared((db: Db, args: { userId: string; now: Date }) =>
  db
    .selectFrom('users as u')
    .leftJoin(userSubscriptionsQuery(db, args.userId, args.now).as('s'), (join) => join.onTrue())
    .select([
      'u.id',
      'u.first_name',
      'u.last_name',
      'u.display_name',
      'u.primary_email',
      'u.pending_email',
      'u.phone_number',
      'u.pending_phone',
      sql<boolean>`u.password_hash is not null`.as('has_password'),
      'u.is_public',
      'u.language',
      'u.birth_year',
      'u.gender',
      'u.opted_in',
      'u.audio_quality',
      'u.is_verified',
      'u.usercentrics_controller_id',
      'u.iso2_country_code',
      'u.test_user',
      'u.tags',
      's.id as subscription_id',
      's.owner_id',
      's.start_date',
      's.end_date',
      's.is_auto_renew',
      's.source_type',
      's.name_en',
      's.name_mn',
      's.merchant_code',
      's.allow_share',
      's.max_shared_users',
      // The newest owned period already over (its own index: owner, end date), or the newest
      // place on someone else's plan that ended (family/departures.ts; its own index too).
      (eb) =>
        sql<Date | null>`greatest((${eb
          .selectFrom('subscriptions as ended')
          .select((inner) => inner.fn.max('ended.end_date').as('end_date'))
          .whereRef('ended.owner_id', '=', 'u.id')
          .where('ended.end_date', '<=', args.now)}), (${eb
          .selectFrom('family_departures as gone')
          .select((inner) => inner.fn.max('gone.ended_at').as('ended_at'))
          .whereRef('gone.user_id', '=', 'u.id')
          .where('gone.ended_at', '<=', args.now)}))`.as('premium_ended_at'),
    ])
    .where('u.id', '=', args.userId)
    .where('u.deleted_at', 'is', null)
    .orderBy('s.end_date', 'desc'),
);

type ProfileRow = Awaited<ReturnType<typeof selectProfileRows>>[number];

/**
 * A joined subscription's columns are all set when its id is (they are NOT NULL in their tables).
 * Spelled out: an object rest that leaves a key out (`{ subscription_id, ...row }`) takes V8's
 * slow path, 3 % of the profile call's CPU (docs/performance.md, "Round ten").
 */
function subscriptionOf(row: ProfileRow): SubscriptionRow | undefined {
  if (row.subscription_id === null) return undefined;
  // Every column of a subscription row, no more (the type says so when one is added).
  const subscription: Record<keyof SubscriptionRow, unknown> = {
    id: row.subscription_id,
    owner_id: row.owner_id,
    start_date: row.start_date,
    end_date: row.end_date,
    is_auto_renew: row.is_auto_renew,
    source_type: row.source_type,
    name_en: row.name_en,
    name_mn: row.name_mn,
    merchant_code: row.merchant_code,
    allow_share: row.allow_share,
    max_shared_users: row.max_shared_users,
  };
  return subscription as SubscriptionRow;
}

/** product.md §3 "Profile (read)" with the edit-state fields and the `Subscriptions` list. */
export async function getProfile(db: Db, userId: string, now: Date): Promise<Profile> {
  const rows = await selectProfileRows(db, { userId, now });
  const user = rows[0];
  if (!user) throw notFound('The user does not exist.');
  const subscriptions = rows.map(subscriptionOf).filter((row) => row !== undefined);
  return {
    UserId: user.id,
    FirstName: user.first_name,
    LastName: user.last_name,
    DisplayName: user.display_name,
    PrimaryEmail: user.primary_email,
    PendingEmail: user.pending_email,
    PhoneNumber: user.phone_number,
    PendingPhone: user.pending_phone,
    HasPassword: user.has_password,
    IsPublic: user.is_public,
    Language: user.language,
    BirthYear: user.birth_year,
    Gender: user.gender,
    OptedIn: user.opted_in,
    AudioQuality: user.audio_quality,
    IsVerified: user.is_verified,
    UserCentricsControllerID: user.usercentrics_controller_id,
    Iso2CountryCode: user.iso2_country_code,
    TestUser: user.test_user,
    Tags: Array.isArray(user.tags) ? user.tags : [],
    Subscriptions: toSubscriptionViews(subscriptions, userId),
    PremiumEndedAt: user.premium_ended_at ? new Date(user.premium_ended_at).toISOString() : null,
  };
}

export interface DetailsChange {
  FirstName?: string;
  LastName?: string;
}

/**
 * `PATCH /api/users/me/details`: names, each at most 50 characters (product.md §5). A new e-mail
 * address goes through `email-change.ts` instead: it takes effect only once confirmed.
 */
export async function updateNames(db: Db, user: User, change: DetailsChange, now: Date): Promise<void> {
  const firstName = change.FirstName ?? user.first_name;
  const lastName = change.LastName ?? user.last_name;
  if (firstName === user.first_name && lastName === user.last_name) return;
  await db
    .updateTable('users')
    .set({
      first_name: firstName,
      last_name: lastName,
      display_name: `${firstName} ${lastName}`.trim(),
      updated_at: now,
    })
    .where('id', '=', user.id)
    .execute();
}

/**
 * The language every message to the account is written in (`PATCH /api/users/me/details`
 * `Language`): the site sends it when the listener switches language while signed in.
 */
export async function updateLanguage(db: Db, user: User, language: Lang, now: Date): Promise<void> {
  if (language === user.language) return;
  await db.updateTable('users').set({ language, updated_at: now }).where('id', '=', user.id).execute();
}

/** Removes the profile's e-mail address, unless it is how the account signs in. */
export async function removeEmail(db: Db, user: User, now: Date): Promise<void> {
  if (!user.primary_email && !user.pending_email) return;
  if (user.username === user.primary_email) {
    throw badRequest('The e-mail address is how this account signs in; it cannot be removed.', 'Email');
  }
  await db
    .updateTable('users')
    .set({ primary_email: null, pending_email: null, updated_at: now })
    .where('id', '=', user.id)
    .execute();
}

/** product.md §3 "Login info entry": how this user can sign in. */
export async function getLogins(db: Db, userId: string): Promise<LoginInfo[]> {
  const user = await getUser(db, userId);
  const logins: LoginInfo[] = [];
  if (user.primary_email) logins.push({ Type: 'Email', Value: user.primary_email });
  if (user.phone_number) logins.push({ Type: 'Msisdn', Value: user.phone_number });
  logins.push({ Type: 'Username', Value: user.username });
  return logins;
}
