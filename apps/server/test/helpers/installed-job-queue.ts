import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { DatabaseOptions } from '../../src/db/database.js';

const installer = fileURLToPath(new URL('./job-queue-installer.ts', import.meta.url));

/**
 * Migrates the run's template or snapshot and installs the job queue in it (job-queue-installer.ts),
 * in a Node.js of its own: the global setup runs in Vitest's main process, which resolves the
 * workspace's packages without the `source` condition its workers get, and on a fresh clone
 * `@tunes/shared` has no build yet, so the app cannot be imported there.
 */
export function migrateWithJobQueue(database: DatabaseOptions): void {
  const ran = spawnSync(
    process.execPath,
    ['--conditions', 'source', '--import', 'tsx', installer, JSON.stringify(database)],
    { cwd: path.resolve(path.dirname(installer), '../..'), encoding: 'utf8' },
  );
  if (ran.status !== 0)
    throw new Error(
      `migrating the template with its job queue failed (${ran.status}): ${ran.stderr || ran.stdout}`,
    );
}
