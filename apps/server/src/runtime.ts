import type { Config } from './config.js';
import { type DatabaseHandle, openDatabase } from './db/database.js';
import { lockDataDir } from './db/lock.js';
import { migrateToLatest } from './db/migrate.js';

export interface OpenedDatabase extends DatabaseHandle {
  /** Closes the database and releases the data-directory lock. */
  shutdown(): Promise<void>;
}

/**
 * Opens the configured database (PostgreSQL when DATABASE_URL is set, else PGlite in DATA_DIR
 * under an exclusive lock) and brings its schema to the latest migration.
 */
export async function openConfiguredDatabase(config: Config): Promise<OpenedDatabase> {
  const release = config.DATABASE_URL ? () => {} : lockDataDir(config.dataDir);
  let handle: DatabaseHandle;
  try {
    handle = config.DATABASE_URL
      ? await openDatabase({
          kind: 'postgres',
          url: config.DATABASE_URL,
          poolSize: config.DATABASE_POOL_SIZE,
        })
      : await openDatabase({ kind: 'pglite', dataDir: config.dataDir });
    await migrateToLatest(handle.db);
  } catch (error) {
    release();
    throw error;
  }
  return {
    ...handle,
    shutdown: async () => {
      try {
        await handle.close();
      } finally {
        release();
      }
    },
  };
}
