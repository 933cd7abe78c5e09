import { buildApp } from '../../src/app.js';
import { loadConfig } from '../../src/config.js';
import type { DatabaseHandle } from '../../src/db/database.js';
import { createDeps } from '../../src/deps.js';
import { ManualClock } from '../../src/lib/clock.js';

/**
 * Installs the job queue in a migrated database as the app's first start does: pg-boss's schema,
 * a queue for every kind of job the app registers, and the fetch-order index (lib/job-queue.ts).
 * The run's template and snapshot hold it, so a test file's first job does not install it again
 * (on PGlite ~5 s of CPU, on PostgreSQL ~0.7 s, for each of the ~40 files that run jobs). The
 * install itself is still tested where a server starts on a database of its own (the e2e and
 * scale-out layers, durability, compose, job-queue-fetch).
 */
export async function installJobQueue(handle: DatabaseHandle): Promise<void> {
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
