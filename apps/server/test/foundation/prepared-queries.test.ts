import { type Kysely, sql, type Transaction } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { prepared } from '../../src/db/prepared.js';
import type { Database } from '../../src/db/schema.js';
import { createUser } from '../helpers/factories.js';
import { createTestApp, type TestApp } from '../helpers/test-app.js';

type Db = Kysely<Database> | Transaction<Database>;

/**
 * `prepared()` queries run as named statements on both databases (parsed once, then only bound
 * and executed): what they answer must not differ from the same query run plainly.
 */
let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => {
  await t.close();
});

const usersSince = (db: Db, args: { since: Date; language: string | null; ids: string[] }) =>
  db
    .selectFrom('users')
    .select(['id', 'first_name', 'created_at', 'tags', sql<number>`count(*) over ()`.as('total')])
    .where('created_at', '>=', args.since)
    .where((eb) => eb.or([eb('language', '=', args.language), sql<boolean>`${args.language}::text is null`]))
    .where('id', '=', sql<string>`any(${args.ids}::uuid[])`)
    .orderBy('first_name');

const preparedUsersSince = prepared(usersSince);

const nameOf = prepared((db: Db, args: { id: string }) =>
  db.selectFrom('users').select(['id', 'first_name']).where('id', '=', args.id),
);

const tagUser = prepared((db: Db, args: { id: string; tags: string }) =>
  db.updateTable('users').set({ tags: args.tags }).where('id', '=', args.id).returning('tags'),
);

const renameUser = prepared((db: Db, args: { id: string; name: string }) =>
  db.updateTable('users').set({ first_name: args.name }).where('id', '=', args.id).returning('first_name'),
);

const insertUsername = prepared((db: Db, args: { username: string }) =>
  db.insertInto('users').values({ username: args.username, country_code: 976 }).returning('id'),
);

describe('prepared queries', () => {
  it('answer what the plain query answers, with dates, arrays, nulls, JSON and counts', async () => {
    const since = new Date(t.clock.now().getTime() - 60_000);
    const a = await createUser(t.db, { first_name: 'Anu', tags: JSON.stringify(['early']) });
    const b = await createUser(t.db, { first_name: 'Bat' });
    const args = { since, language: null, ids: [a.id, b.id] };

    const plain = await usersSince(t.db, args).execute();
    // Twice: the first call parses the statement, the second only binds and executes it.
    expect(await preparedUsersSince(t.db, args)).toEqual(plain);
    expect(await preparedUsersSince(t.db, args)).toEqual(plain);
    expect(plain.map((row) => [row.first_name, row.tags, row.total])).toEqual([
      ['Anu', ['early'], 2],
      ['Bat', [], 2],
    ]);
    expect(plain[0]?.created_at).toBeInstanceOf(Date);
    expect(await preparedUsersSince(t.db, { ...args, ids: [b.id] })).toEqual([
      expect.objectContaining({ id: b.id, total: 1 }),
    ]);
  });

  it('write, fail with the database error code, and leave the connection usable, in and out of transactions', async () => {
    const user = await createUser(t.db);
    expect(await renameUser(t.db, { id: user.id, name: 'Saraa' })).toEqual([{ first_name: 'Saraa' }]);

    const taken = await insertUsername(t.db, { username: `prepared-${user.id}` });
    expect(taken).toHaveLength(1);
    await expect(insertUsername(t.db, { username: `prepared-${user.id}` })).rejects.toMatchObject({
      code: '23505',
    });

    await expect(
      t.db.transaction().execute(async (trx) => {
        await renameUser(trx, { id: user.id, name: 'Rolled back' });
        await insertUsername(trx, { username: `prepared-${user.id}` });
      }),
    ).rejects.toMatchObject({ code: '23505' });
    const after = await t.db.selectFrom('users').select('first_name').where('id', '=', user.id).execute();
    expect(after).toEqual([{ first_name: 'Saraa' }]);
    expect(await renameUser(t.db, { id: user.id, name: 'Sara' })).toEqual([{ first_name: 'Sara' }]);
  });

  it('store JSON text as JSON, as the plain query does', async () => {
    const user = await createUser(t.db);
    expect(await tagUser(t.db, { id: user.id, tags: JSON.stringify(['beta', 'mn']) })).toEqual([
      { tags: ['beta', 'mn'] },
    ]);
    const stored = await t.db
      .selectFrom('users')
      .select(sql<string>`jsonb_typeof(tags)`.as('kind'))
      .where('id', '=', user.id)
      .executeTakeFirstOrThrow();
    expect(stored.kind).toBe('array');
  });

  it('give each of 300 callers at once its own rows', async () => {
    const users = await Promise.all(
      Array.from({ length: 30 }, (_, index) => createUser(t.db, { first_name: `Burst ${index}` })),
    );
    const calls = Array.from(
      { length: 300 },
      (_, index) => users[index % users.length] as (typeof users)[number],
    );
    const answers = await Promise.all(calls.map((user) => nameOf(t.db, { id: user.id })));
    expect(answers).toEqual(calls.map((user) => [{ id: user.id, first_name: user.first_name }]));
  });
});
