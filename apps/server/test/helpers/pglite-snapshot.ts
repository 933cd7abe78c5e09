import { cpSync, mkdtempSync } from 'node:fs';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { migrateWithJobQueue } from './installed-job-queue.js';

/**
 * PGlite's counterpart of the PostgreSQL template: one database migrated once per run and kept as
 * a tar of its data directory, which every test app loads (`loadDataDir`) instead of creating a
 * cluster and migrating it. Returns the tar's path and a function that removes it.
 */
export async function createPGliteSnapshot() {
  const dir = await mkdtemp(path.join(tmpdir(), 'tunes-pglite-snapshot-'));
  migrateWithJobQueue({ kind: 'pglite', dataDir: dir });
  // As the `backup` command does, from the closed data directory; uncompressed, as every test
  // file unpacks it.
  const file = path.join(dir, 'migrated.tar');
  const pglite = await PGlite.create({ dataDir: path.join(dir, 'pgdata') });
  try {
    const dump = await pglite.dumpDataDir('none');
    await writeFile(file, new Uint8Array(await dump.arrayBuffer()));
  } finally {
    await pglite.close();
  }
  return { file, remove: () => rm(dir, { recursive: true, force: true }) };
}

let read: { file: string; blob: Promise<Blob> } | undefined;

/** The snapshot's bytes, read once per test process: a Blob never changes, so every app shares it. */
export function readPGliteSnapshot(file: string): Promise<Blob> {
  if (read?.file !== file) read = { file, blob: readFile(file).then((bytes) => new Blob([bytes])) };
  return read.blob;
}

/**
 * A new DATA_DIR holding a copy of the run's migrated cluster (the snapshot's own data directory,
 * `snapshot` being its tar's path): what `npm run admin` finds after a first start, without
 * creating and migrating a cluster (seconds of CPU) for each command test. The command still
 * migrates (nothing to do) and seeds as configured.
 */
export function migratedDataDir(snapshot: string, prefix: string): string {
  const dataDir = mkdtempSync(path.join(tmpdir(), prefix));
  cpSync(path.join(path.dirname(snapshot), 'pgdata'), path.join(dataDir, 'pgdata'), { recursive: true });
  return dataDir;
}
