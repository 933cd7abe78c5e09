import { randomBytes } from 'node:crypto';
import type { Kysely } from 'kysely';
import type { Database, Package, Subscription } from '../../src/db/schema.js';

const DAY_MS = 24 * 60 * 60 * 1000;
const unique = () => randomBytes(4).toString('hex').toUpperCase();

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
    .values({ id: 14, name: 'Tunes' })
    .onConflict((oc) => oc.column('id').doNothing())
    .execute();
  return db
    .insertInto('packages')
    .values({
      merchant_id: 14,
      merchant_code: `TEST_FAMILY_${unique()}`,
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
  createPackage(db, { merchant_code: `TEST_DUO_${unique()}`, offer: 'premium-duo', max_shared_users: 1 });
export const singlePackage = (db: Kysely<Database>) =>
  createPackage(db, {
    merchant_code: `TEST_PREMIUM_${unique()}`,
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
