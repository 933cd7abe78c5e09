import { existsSync } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { PGlite } from '@electric-sql/pglite';
import { lockDataDir } from '../../db/lock.js';
import { type AdminCommand, UsageError } from '../command.js';

export const POSTGRES_BACKUP_HELP =
  'With DATABASE_URL the data is in PostgreSQL: back it up with pg_dump -Fc "$DATABASE_URL" -f tunes.dump ' +
  'and restore with pg_restore --clean --if-exists -d "$DATABASE_URL" tunes.dump (docs/operations.md).';

/**
 * A consistent copy of the embedded database: PGlite writes its whole data directory to one
 * gzipped tar file. The server must be stopped (it holds DATA_DIR's lock); the command says so.
 */
export const command: AdminCommand = {
  name: 'backup',
  summary:
    'Write the embedded database (DATA_DIR) to one .tar.gz file, while the server is stopped. On PostgreSQL, prints the pg_dump command.',
  usage: 'backup --out <file.tar.gz>',
  async run(args, { config, print }) {
    const { values } = parseArgs({ args, options: { out: { type: 'string' } } });
    if (config.DATABASE_URL) throw new UsageError(POSTGRES_BACKUP_HELP);
    const out = values.out?.trim();
    if (!out) throw new UsageError('--out needs the file to write, e.g. --out backup.tar.gz');
    const pgdata = path.join(config.dataDir, 'pgdata');
    if (!existsSync(pgdata)) throw new UsageError(`there is no database in ${config.dataDir} to back up`);
    const release = lockDataDir(config.dataDir);
    try {
      const pglite = await PGlite.create({ dataDir: pgdata });
      try {
        const dump = await pglite.dumpDataDir('gzip');
        const bytes = Buffer.from(await dump.arrayBuffer());
        await writeFile(out, bytes);
        print(`Wrote ${path.resolve(out)} (${Math.round(bytes.length / 1024)} KB) from ${config.dataDir}.`);
      } finally {
        await pglite.close();
      }
    } finally {
      release();
    }
  },
};
