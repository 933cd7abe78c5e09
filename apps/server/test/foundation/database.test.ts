import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { openDatabase } from '../../src/db/database.js';
import { DataDirLockedError, lockDataDir } from '../../src/db/lock.js';
import { migrateToLatest } from '../../src/db/migrate.js';
import { createUser } from '../helpers/factories.js';
import { createTestApp } from '../helpers/test-app.js';

const dirs: string[] = [];
const tempDir = () => {
  const dir = mkdtempSync(path.join(tmpdir(), 'tunes-db-'));
  dirs.push(dir);
  return dir;
};
afterAll(() => {
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

describe('database layer', () => {
  it('keeps data in DATA_DIR across a restart', async () => {
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
  }, 120_000);

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
