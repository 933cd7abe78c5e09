import { existsSync, readdirSync } from 'node:fs';
import { readFile, rm } from 'node:fs/promises';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { PGlite } from '@electric-sql/pglite';
import { lockDataDir } from '../../db/lock.js';
import { type AdminCommand, UsageError } from '../command.js';
import { POSTGRES_BACKUP_HELP } from './backup.js';

/**
 * Puts a backup made by `backup` into DATA_DIR (the server stopped). An existing database is
 * replaced only with --replace, so a mistyped directory never loses data silently.
 */
export const command: AdminCommand = {
  name: 'restore',
  summary:
    'Load a backup made by "backup" into DATA_DIR (server stopped; --replace to overwrite an existing database). On PostgreSQL, prints the pg_restore command.',
  usage: 'restore --from <file.tar.gz> [--replace]',
  async run(args, { config, print }) {
    const { values } = parseArgs({
      args,
      options: { from: { type: 'string' }, replace: { type: 'boolean', default: false } },
    });
    if (config.DATABASE_URL) throw new UsageError(POSTGRES_BACKUP_HELP);
    const from = values.from?.trim();
    if (!from) throw new UsageError('--from needs the backup file, e.g. --from backup.tar.gz');
    if (!existsSync(from)) throw new UsageError(`--from: there is no file ${from}`);
    const pgdata = path.join(config.dataDir, 'pgdata');
    const holdsData = existsSync(pgdata) && readdirSync(pgdata).length > 0;
    if (holdsData && !values.replace) {
      throw new UsageError(`${config.dataDir} already holds a database; add --replace to overwrite it`);
    }
    const release = lockDataDir(config.dataDir);
    try {
      if (holdsData) await rm(pgdata, { recursive: true, force: true });
      const backup = new Blob([await readFile(from)]);
      const pglite = await PGlite.create({ dataDir: pgdata, loadDataDir: backup });
      try {
        const { rows } = await pglite.query<{ users: number }>('select count(*)::int as users from users');
        print(`Restored ${from} into ${config.dataDir} (${rows[0]?.users ?? 0} accounts).`);
      } finally {
        await pglite.close();
      }
    } finally {
      release();
    }
  },
};
