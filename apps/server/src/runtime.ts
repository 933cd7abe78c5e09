import type { Config } from './config.js';
import { type DatabaseHandle, openDatabase } from './db/database.js';
import { lockDataDir } from './db/lock.js';
import { migrateToLatest } from './db/migrate.js';
import { applyDemoSeeds } from './db/seed.js';
import { demoSeeds } from './demo-seeds.js';

export interface OpenedDatabase extends DatabaseHandle {
  /** Settles once the schema is at the latest migration (and the demo data is seeded, if asked). */
  ready: Promise<void>;
  /** Closes the database and releases the data-directory lock. */
  shutdown(): Promise<void>;
}

/**
 * Opens the configured database (PostgreSQL when DATABASE_URL is set, else PGlite in DATA_DIR
 * under an exclusive lock) and starts bringing its schema to the latest migration, then seeding
 * the demo data when `seed` is set. A first start on an empty DATA_DIR spends seconds creating
 * the cluster; `ready` lets the server answer its pages meanwhile.
 */
export async function openConfiguredDatabase(
  config: Config,
  { seed = false }: { seed?: boolean } = {},
): Promise<OpenedDatabase> {
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
  } catch (error) {
    release();
    throw error;
  }
  const ready = (async () => {
    await migrateToLatest(handle.db);
    if (seed) await applyDemoSeeds(handle.db, demoSeeds);
  })();
  ready.catch(() => {});
  return {
    ...handle,
    ready,
    shutdown: async () => {
      try {
        await handle.close();
      } finally {
        release();
      }
    },
  };
}
