import type { FastifyInstance } from 'fastify';
import type { Kysely } from 'kysely';
import { inject } from 'vitest';
import { buildApp } from '../../src/app.js';
import { type Config, loadConfig } from '../../src/config.js';
import { openDatabase, pgliteHandle } from '../../src/db/database.js';
import type { Database } from '../../src/db/schema.js';
import { createDeps, type Deps } from '../../src/deps.js';
import { ManualClock } from '../../src/lib/clock.js';
import { leasePGlite } from './pglite-pool.js';
import { readPGliteSnapshot } from './pglite-snapshot.js';
import { createDatabaseFromTemplate } from './postgres.js';
import { TEST_ENV } from './test-env.js';

export interface TestApp {
  app: FastifyInstance;
  deps: Deps;
  db: Kysely<Database>;
  config: Config;
  /** Business time of the app; starts at the real time, moves only when a test moves it. */
  clock: ManualClock;
  /** `{ authorization: 'Bearer …' }` for a user. */
  authHeader(userId: string): Promise<Record<string, string>>;
  close(): Promise<void>;
}

/** Which database the integration suite runs on: PGlite unless TEST_DATABASE=postgres. */
export const testDatabaseKind = process.env.TEST_DATABASE === 'postgres' ? 'postgres' : 'pglite';

/**
 * What a PGlite of a test's own starts from: the run's migrated snapshot (global-setup.ts), so it
 * neither creates a cluster nor migrates one (seconds of CPU each); on the PostgreSQL layer, which
 * makes no snapshot, a new cluster.
 */
export async function pgliteFromSnapshot(): Promise<{ loadDataDir?: Blob }> {
  const snapshot = inject('pgliteSnapshot');
  return snapshot ? { loadDataDir: await readPGliteSnapshot(snapshot) } : {};
}

/**
 * The real application on a fresh real database, a copy of the one migrated in global-setup.ts:
 * in-memory PGlite loaded from its snapshot (a thread of this process's pool, reset to it), or a
 * PostgreSQL database made from its template.
 * Build one per test file (beforeAll) and close it afterwards.
 */
export async function createTestApp(
  env: Record<string, string> = {},
  options: { shareDatabaseWith?: TestApp } = {},
): Promise<TestApp> {
  let dropDatabase = async () => {};
  let databaseUrl: string | undefined;
  if (options.shareDatabaseWith) {
    // A second server on the first one's PostgreSQL database (scale-out tests); the first drops it.
    databaseUrl = options.shareDatabaseWith.config.DATABASE_URL;
    if (!databaseUrl) throw new Error('only a PostgreSQL test app can share its database');
  } else if (testDatabaseKind === 'postgres') {
    const created = await createDatabaseFromTemplate(
      process.env.DATABASE_URL ?? '',
      inject('postgresTemplate'),
    );
    databaseUrl = created.url;
    dropDatabase = async () => {
      await created.drop();
    };
  }
  const config = loadConfig({
    ...TEST_ENV,
    ...(databaseUrl ? { DATABASE_URL: databaseUrl } : {}),
    ...env,
  });
  const handle = databaseUrl
    ? await openDatabase({ kind: 'postgres', url: databaseUrl, poolSize: 10 })
    : // A PGlite lent by this process's pool and given back, reset, at `close`.
      pgliteHandle(leasePGlite(await readPGliteSnapshot(inject('pgliteSnapshot'))));

  // A second server on the same database keeps the first one's clock, as processes share the wall clock.
  const clock = options.shareDatabaseWith?.clock ?? new ManualClock();
  const deps = createDeps({ config, db: handle.db, dbKind: handle.kind, clock });
  const app = await buildApp(deps, { logLevel: 'silent' });
  await app.ready();

  return {
    app,
    deps,
    db: handle.db,
    config,
    clock,
    authHeader: async (userId) => ({
      authorization: `Bearer ${await deps.accessTokens.sign(userId, clock.now().getTime())}`,
    }),
    close: async () => {
      await app.close();
      await deps.close();
      await handle.close();
      await dropDatabase();
    },
  };
}
