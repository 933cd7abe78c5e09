import { randomBytes } from 'node:crypto';
import type { Kysely } from 'kysely';
import type { Database, NewUser, User } from '../../src/db/schema.js';

const unique = () => randomBytes(4).toString('hex');

/** A random Mongolian mobile number as the spec stores it: 976 followed by 8 digits. */
export function randomMsisdn(): string {
  return `9768${String(Math.floor(Math.random() * 10_000_000)).padStart(7, '0')}`;
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
