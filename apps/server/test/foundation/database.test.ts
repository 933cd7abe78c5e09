import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { sql } from 'kysely';
import { afterAll, describe, expect, it } from 'vitest';
import { openDatabase } from '../../src/db/database.js';
import { DataDirLockedError, lockDataDir } from '../../src/db/lock.js';
import { migrateToLatest } from '../../src/db/migrate.js';
import { PGliteThread } from '../../src/db/pglite-thread.js';
import { createUser } from '../helpers/factories.js';
import { createTestApp, pgliteFromSnapshot, testDatabaseKind } from '../helpers/test-app.js';

const dirs: string[] = [];
const tempDir = () => {
  const dir = mkdtempSync(path.join(tmpdir(), 'tunes-db-'));
  dirs.push(dir);
  return dir;
};
afterAll(() => {
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

/**
 * The embedded database's own tests (DATA_DIR on disk, PGlite's thread) run in PGlite's layer,
 * which every run of the suite has; PostgreSQL's layer, which has no snapshot, would only repeat
 * them on new clusters (~45 s of its time), so it skips them.
 */
const onPostgres = testDatabaseKind === 'postgres';

describe('database layer', () => {
  it.skipIf(onPostgres)(
    'keeps data in DATA_DIR across a restart',
    async () => {
      const dataDir = tempDir();
      const first = await openDatabase({ kind: 'pglite', dataDir });
      await migrateToLatest(first.db);
      const user = await createUser(first.db);
      await first.close();

      const second = await openDatabase({ kind: 'pglite', dataDir });
      expect(await migrateToLatest(second.db)).toEqual([]);
      const found = await second.db
        .selectFrom('users')
        .select('id')
        .where('id', '=', user.id)
        .executeTakeFirst();
      expect(found?.id).toBe(user.id);
      await second.close();
      // Two on-disk cluster starts: seconds each, more on a loaded machine (an upper bound, not a timing).
    },
    120_000,
  );

  it('refuses a second server on the same data directory', () => {
    const dataDir = tempDir();
    const release = lockDataDir(dataDir);
    expect(() => lockDataDir(dataDir)).not.toThrow(); // same process may re-take its own lock
    release();
    const other = path.join(dataDir, 'server.lock');
    // A lock held by a live process (our parent) is refused.
    writeFileSync(other, String(process.ppid));
    expect(() => lockDataDir(dataDir)).toThrow(DataDirLockedError);
  });

  it('rolls a failed transaction back and keeps concurrent transactions apart', async () => {
    const t = await createTestApp();
    try {
      await expect(
        t.db.transaction().execute(async (trx) => {
          await createUser(trx, { first_name: 'Rolled' });
          throw new Error('boom');
        }),
      ).rejects.toThrow('boom');
      const rolled = await t.db.selectFrom('users').select('id').where('first_name', '=', 'Rolled').execute();
      expect(rolled).toHaveLength(0);

      await Promise.all(
        Array.from({ length: 10 }, (_, index) =>
          t.db.transaction().execute(async (trx) => {
            await createUser(trx, { first_name: `Parallel${index}` });
          }),
        ),
      );
      const rows = await t.db
        .selectFrom('users')
        .select('id')
        .where('first_name', 'like', 'Parallel%')
        .execute();
      expect(rows).toHaveLength(10);
    } finally {
      await t.close();
    }
  });
});

// Each PGlite here starts from the run's migrated snapshot: what is tested is the thread, not
// creating a cluster (the first test above does that on disk).
describe.skipIf(onPostgres)("PGlite's own thread", () => {
  it('keeps the event loop free while a statement runs', async () => {
    const handle = await openDatabase({ kind: 'pglite', ...(await pgliteFromSnapshot()) });
    try {
      const finished: string[] = [];
      // PGlite works for half a second; in the server's thread no timer could fire meanwhile.
      const statement = sql`select pg_sleep(0.5)`.execute(handle.db).then(() => finished.push('statement'));
      await sleep(10);
      finished.push('timer');
      await statement;
      expect(finished).toEqual(['timer', 'statement']);
    } finally {
      await handle.close();
    }
  });

  it("brings PostgreSQL's error fields back across the thread", async () => {
    const handle = await openDatabase({ kind: 'pglite', ...(await pgliteFromSnapshot()) });
    try {
      await migrateToLatest(handle.db);
      await createUser(handle.db, { primary_email: 'twice@example.mn' });
      const failure = await createUser(handle.db, { primary_email: 'twice@example.mn' }).catch(
        (error: unknown) => error,
      );
      expect(failure).toBeInstanceOf(Error);
      expect(failure).toMatchObject({ code: '23505', table: 'users' });
    } finally {
      await handle.close();
    }
  });

  it('refuses a value that cannot cross to the thread, and goes on with the next statement', async () => {
    const thread = new PGliteThread(await pgliteFromSnapshot());
    try {
      await thread.ready;
      const notAValue = () => 'a function';
      await expect(
        thread.run({ sql: 'select $1 as x', parameters: [notAValue], script: false }),
      ).rejects.toThrow(/could not be cloned/);
      await expect(
        thread.run({ sql: 'select 2 as x', parameters: [], script: false }),
      ).resolves.toMatchObject({
        rows: [{ x: 2 }],
      });
    } finally {
      await thread.close();
    }
  });

  it('lets a running statement finish when it closes, and refuses statements afterwards', async () => {
    const thread = new PGliteThread(await pgliteFromSnapshot());
    await thread.ready;
    const running = thread.run({ sql: 'select pg_sleep(0.2), 1 as done', parameters: [], script: false });
    await thread.close();
    await expect(running).resolves.toMatchObject({ rows: [{ done: 1 }] });
    await expect(thread.run({ sql: 'select 1', parameters: [], script: false })).rejects.toThrow(
      'PGlite is closed',
    );
  });
});
