import { fileURLToPath } from 'node:url';
import { buildApp } from '../../src/app.js';
import { loadConfig } from '../../src/config.js';
import { type DatabaseHandle, type DatabaseOptions, openDatabase } from '../../src/db/database.js';
import { createDeps } from '../../src/deps.js';
import { ManualClock } from '../../src/lib/clock.js';

/**
 * `node --conditions source --import tsx job-queue-installer.ts '<DatabaseOptions as JSON>'`, run
 * by installed-job-queue.ts: installs the job queue in a migrated database as the app's first
 * start does (pg-boss's schema, a queue for every kind of job the app registers, the fetch-order
 * index: lib/job-queue.ts). The run's template and snapshot hold it, so a test file's first job
 * does not install it again (on PostgreSQL 0.68 s down to 0.21, for each of the ~40 files that
 * run jobs). The install itself is still tested where a server starts on a database of its own
 * (the e2e and scale-out layers, durability on PGlite).
 */
async function installJobQueue(handle: DatabaseHandle): Promise<void> {
  const config = loadConfig({
    NODE_ENV: 'test',
    LOG_LEVEL: 'silent',
    PUBLIC_URL: 'http://localhost:3000',
    WEB_DIST_DIR: '/nonexistent',
    PAYMENT_CHECK_INTERVAL_SECONDS: '0',
  });
  const deps = createDeps({ config, db: handle.db, dbKind: handle.kind, clock: new ManualClock() });
  const app = await buildApp(deps, { logLevel: 'silent' });
  try {
    await app.ready();
    // Asking the queues' depth starts pg-boss, which installs its schema and the app's queues.
    await app.jobs.depth();
  } finally {
    await app.close();
    await deps.close();
  }
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const handle = await openDatabase(JSON.parse(process.argv[2] ?? '{}') as DatabaseOptions);
  try {
    await installJobQueue(handle);
  } finally {
    await handle.close();
  }
}
