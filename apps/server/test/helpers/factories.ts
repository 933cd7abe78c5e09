import { randomBytes, randomInt } from 'node:crypto';
import { MERCHANT_ID, STORE_ID } from '@tunes/shared/constants';
import type { Insertable, Kysely } from 'kysely';
import type { Database, NewUser, Package, Subscription, User } from '../../src/db/schema.js';
import { seedPlans } from '../../src/modules/catalog/demo-seeds.js';
import type { PaymentInvoicesTable, PaymentLedgerTable } from '../../src/modules/premium/tables.js';
import type { TestApp } from './test-app.js';

/**
 * The one home of the API suites' test data: constants, the site's request headers, and rows
 * made with overrides so each test makes what it needs. Calls through the API that several
 * suites share live beside it, named for their module (`accounts.ts`, `premium.ts`).
 */

export { PLAN_CODES } from '../../src/modules/catalog/demo-seeds.js';

export const DAY_MS = 24 * 60 * 60 * 1000;

const unique = () => randomBytes(4).toString('hex');

/** The header of every request the site sends (api.md). */
export const STORE = { StoreId: STORE_ID };

/** The site's headers for the holder of an access token. */
export const bearer = (accessToken: string) => ({ ...STORE, authorization: `Bearer ${accessToken}` });

/** The site's headers, signed in as `userId` when one is given. */
export async function siteHeaders(t: TestApp, userId?: string): Promise<Record<string, string>> {
  return { ...STORE, ...(userId ? await t.authHeader(userId) : {}) };
}

const issuedMsisdns = new Set<string>();

/**
 * A random Mongolian mobile number as the spec stores it: 976 followed by 8 digits. Never the
 * same twice in a process: a test file's users share a database whose usernames are unique, and
 * a file that makes a hundred users met a birthday collision in CI.
 */
export function randomMsisdn(): string {
  for (;;) {
    const msisdn = `9768${String(randomInt(10_000_000)).padStart(7, '0')}`;
    if (!issuedMsisdns.has(msisdn)) {
      issuedMsisdns.add(msisdn);
      return msisdn;
    }
  }
}

/** Inserts a user; by default a mobile account with a random number. */
export async function createUser(db: Kysely<Database>, overrides: Partial<NewUser> = {}): Promise<User> {
  const msisdn = overrides.phone_number ?? randomMsisdn();
  return db
    .insertInto('users')
    .values({
      username: overrides.primary_email ?? msisdn,
      phone_number: overrides.primary_email ? null : msisdn,
      country_code: 976,
      first_name: `Test${unique()}`,
      ...overrides,
    })
    .returningAll()
    .executeTakeFirstOrThrow();
}

/** A signed-in user with a name, for checkouts. */
export async function shopper(t: TestApp) {
  const user = await createUser(t.db, { first_name: 'Bold', last_name: 'Bat' });
  return { user, headers: await siteHeaders(t, user.id) };
}

/** Merchant 14 with the seeded plans (idempotent). */
export const withPlans = (t: TestApp) => seedPlans(t.db);

/** Ensures merchant 14 exists and inserts a package; by default a Family plan of 3 shared seats. */
export async function createPackage(
  db: Kysely<Database>,
  overrides: Partial<{
    merchant_code: string;
    offer: string;
    allow_share: boolean;
    max_shared_users: number;
  }> = {},
): Promise<Package> {
  await db
    .insertInto('merchants')
    .values({ id: MERCHANT_ID, name: 'Tunes' })
    .onConflict((oc) => oc.column('id').doNothing())
    .execute();
  return db
    .insertInto('packages')
    .values({
      merchant_id: MERCHANT_ID,
      merchant_code: `TEST_FAMILY_${unique().toUpperCase()}`,
      offer: 'premium-family',
      name_en: 'Premium Family',
      name_mn: 'Премиум Гэр бүл',
      cost: 17_900,
      currency: 'MNT',
      allow_share: true,
      max_shared_users: 3,
      ...overrides,
    })
    .returningAll()
    .executeTakeFirstOrThrow();
}

export const familyPackage = (db: Kysely<Database>) => createPackage(db);
export const duoPackage = (db: Kysely<Database>) =>
  createPackage(db, {
    merchant_code: `TEST_DUO_${unique().toUpperCase()}`,
    offer: 'premium-duo',
    max_shared_users: 1,
  });
export const singlePackage = (db: Kysely<Database>) =>
  createPackage(db, {
    merchant_code: `TEST_PREMIUM_${unique().toUpperCase()}`,
    offer: 'premium',
    allow_share: false,
    max_shared_users: 0,
  });

/** A paid period of `days` from `start` owned by `ownerId`; not auto-renewing unless asked. */
export async function createSubscription(
  db: Kysely<Database>,
  ownerId: string,
  pkg: Package,
  options: { start?: Date; days?: number; autoRenew?: boolean } = {},
): Promise<Subscription> {
  const start = options.start ?? new Date();
  return db
    .insertInto('subscriptions')
    .values({
      owner_id: ownerId,
      package_id: pkg.id,
      start_date: start,
      end_date: new Date(start.getTime() + (options.days ?? 30) * DAY_MS),
      is_auto_renew: options.autoRenew ?? false,
    })
    .returningAll()
    .executeTakeFirstOrThrow();
}

type NewInvoice = Insertable<PaymentInvoicesTable>;
type NewLedgerRow = Insertable<PaymentLedgerTable>;

/** An invoice of `pkg` for `userId` at its price: by default a card purchase not paid yet. */
export async function createInvoice(
  db: Kysely<Database>,
  userId: string,
  pkg: Package,
  overrides: Partial<NewInvoice> = {},
) {
  return db
    .insertInto('payment_invoices')
    .values({
      invoice_id: `TEST-${unique().toUpperCase()}`,
      user_id: userId,
      package_id: pkg.id,
      amount: pkg.cost,
      currency: pkg.currency,
      created_at: new Date(),
      ...overrides,
    })
    .returningAll()
    .executeTakeFirstOrThrow();
}

/** A payment-ledger row: by default the card page's capture that paid `invoice`. */
export async function createLedgerEntry(
  db: Kysely<Database>,
  invoice: { invoice_id: string; amount: number; currency: string },
  overrides: Partial<NewLedgerRow> = {},
) {
  return db
    .insertInto('payment_ledger')
    .values({
      invoice_id: invoice.invoice_id,
      entry: 'capture',
      method: 'card',
      reference: 'session',
      amount: invoice.amount,
      currency: invoice.currency,
      outcome: 'applied',
      created_at: new Date(),
      ...overrides,
    })
    .returningAll()
    .executeTakeFirstOrThrow();
}
