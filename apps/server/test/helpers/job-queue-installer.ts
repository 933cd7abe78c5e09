import { fileURLToPath } from 'node:url';
import { buildApp } from '../../src/app.js';
import { loadConfig } from '../../src/config.js';
import { type DatabaseOptions, openDatabase } from '../../src/db/database.js';
import { migrateToLatest } from '../../src/db/migrate.js';
import { createDeps } from '../../src/deps.js';
import { ManualClock } from '../../src/lib/clock.js';
import { TEST_ENV } from './test-env.js';

/**
 * `node --conditions source --import tsx job-queue-installer.ts '<DatabaseOptions as JSON>'`, run
 * by installed-job-queue.ts: migrates the run's template database, then installs the job queue in
 * it as the app's first start does (pg-boss's schema, a queue for every kind of job the app
 * registers, the fetch-order index: lib/job-queue.ts). Test files start from copies, so a file's
 * first job does not install it again (on PostgreSQL 0.68 s down to 0.21, for each of the ~40
 * files that run jobs). The install itself is still tested where a server starts on a database
 * of its own (the e2e and scale-out layers, durability on PGlite).
 */
async function migrateAndInstallJobQueue(database: DatabaseOptions): Promise<void> {
  const handle = await openDatabase(database);
  try {
    await migrateToLatest(handle.db);
    const deps = createDeps({
      config: loadConfig(TEST_ENV),
      db: handle.db,
      dbKind: handle.kind,
      clock: new ManualClock(),
    });
    const app = await buildApp(deps, { logLevel: 'silent' });
    try {
      await app.ready();
      // Asking the queues' depth starts pg-boss, which installs its schema and the app's queues.
      await app.jobs.depth();
    } finally {
      await app.close();
      await deps.close();
    }
  } finally {
    await handle.close();
  }
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  await migrateAndInstallJobQueue(JSON.parse(process.argv[2] ?? '{}') as DatabaseOptions);
}
