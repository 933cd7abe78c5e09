import { existsSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, inject, it } from 'vitest';
import { loadConfig } from '../../src/config.js';
import { openConfiguredDatabase } from '../../src/runtime.js';
import { runAdmin } from '../helpers/admin.js';
import { migratedDataDir } from '../helpers/pglite-snapshot.js';
import { testDatabaseKind } from '../helpers/test-app.js';

const admin = runAdmin;

// Backups of the embedded database; PostgreSQL's are pg_dump's (the command says so).
describe.skipIf(testDatabaseKind === 'postgres')('npm run admin -- backup / restore', () => {
  it('copies the embedded database to a file and back into another DATA_DIR, where the data is found', async () => {
    const work = mkdtempSync(path.join(tmpdir(), 'tunes-backup-'));
    const original = migratedDataDir(inject('pgliteSnapshot'), 'tunes-backup-original-');
    const database = await openConfiguredDatabase(loadConfig({ DATA_DIR: original }));
    await database.ready;
    await database.db
      .insertInto('users')
      .values({
        username: 'backed-up@example.mn',
        primary_email: 'backed-up@example.mn',
        first_name: 'Saruul',
      })
      .execute();
    await database.shutdown();

    const file = path.join(work, 'tunes.tar.gz');
    const backup = await admin(original, 'backup', '--out', file);
    expect(backup, backup.stderr).toMatchObject({ code: 0 });
    expect(existsSync(file)).toBe(true);

    const restored = path.join(work, 'restored');
    const restore = await admin(restored, 'restore', '--from', file);
    expect(restore, restore.stderr).toMatchObject({ code: 0 });
    expect(restore.stdout).toContain('1 accounts');
    const reopened = await openConfiguredDatabase(loadConfig({ DATA_DIR: restored }));
    await reopened.ready;
    const user = await reopened.db
      .selectFrom('users')
      .select('first_name')
      .where('primary_email', '=', 'backed-up@example.mn')
      .executeTakeFirst();
    await reopened.shutdown();
    expect(user).toEqual({ first_name: 'Saruul' });

    // An existing database is replaced only when asked.
    const again = await admin(restored, 'restore', '--from', file);
    expect(again.code).toBe(2);
    expect(again.stderr).toContain('--replace');
    expect((await admin(restored, 'restore', '--from', file, '--replace')).code).toBe(0);

    const nothing = await admin(path.join(work, 'empty'), 'backup', '--out', path.join(work, 'x.tar.gz'));
    expect(nothing.code).toBe(2);
    expect(nothing.stderr).toContain('no database');
  }, 120_000);
});
