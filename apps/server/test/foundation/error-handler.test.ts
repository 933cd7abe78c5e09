import { randomUUID } from 'node:crypto';
import { type AddressInfo, createServer } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../src/app.js';
import { loadConfig } from '../../src/config.js';
import { openDatabase } from '../../src/db/database.js';
import { migrateToLatest } from '../../src/db/migrate.js';
import { createDeps } from '../../src/deps.js';
import { STORE } from '../helpers/factories.js';
import { pgliteFromSnapshot } from '../helpers/test-app.js';

/**
 * The one error handler's last branches: a failure we did not expect answers 500 without its
 * details, and a database that is gone answers 503 with Retry-After, both in the one shape.
 */
// The same whatever the layer's database (its PGlite is its own; the gone PostgreSQL is a free
// port): when both layers run, PGlite's runs it (scripts/test.mjs, PGLITE_LAYER_ONLY), from the
// run's migrated snapshot.
const handle = await openDatabase({ kind: 'pglite', ...(await pgliteFromSnapshot()) });
const deps = createDeps({
  config: loadConfig({ NODE_ENV: 'test', LOG_LEVEL: 'silent', WEB_DIST_DIR: '/nonexistent' }),
  db: handle.db,
  dbKind: handle.kind,
});
const app = await buildApp(deps, { logLevel: 'silent' });
app.get('/api/test/boom', async () => {
  throw new Error('connection string postgres://admin:hunter2@db is wrong');
});

beforeAll(async () => {
  await migrateToLatest(handle.db);
  await app.ready();
});
afterAll(async () => {
  await app.close();
  await deps.close();
});

describe('the error handler', () => {
  it('answers an unexpected failure with 500 and hides its details', async () => {
    const answer = await app.inject({ method: 'GET', url: '/api/test/boom' });
    expect(answer.statusCode).toBe(500);
    expect(answer.json()).toEqual({ error: 'internal_error', message: 'Something went wrong on our side.' });
    expect(answer.body).not.toContain('hunter2');
    expect(answer.headers['content-security-policy']).toBeDefined();
  });

  it('answers 503 when PostgreSQL cannot be reached, to prepared and built queries alike', async () => {
    // Nothing listens on a port just freed; the PostgreSQL handle's pool is refused.
    const port = await new Promise<number>((resolve) => {
      const probe = createServer().listen(0, '127.0.0.1', () => {
        const { port } = probe.address() as AddressInfo;
        probe.close(() => resolve(port));
      });
    });
    const gone = await openDatabase({
      kind: 'postgres',
      url: `postgres://postgres@127.0.0.1:${port}/test`,
      poolSize: 1,
    });
    const goneDeps = createDeps({ config: deps.config, db: gone.db, dbKind: gone.kind });
    const goneApp = await buildApp(goneDeps, { logLevel: 'silent' });
    try {
      const userId = randomUUID();
      const token = await goneDeps.accessTokens.sign(userId);
      const answers = await Promise.all([
        // A prepared query (db/prepared.ts) …
        goneApp.inject({
          url: `/api/users/${userId}/profile`,
          headers: { authorization: `Bearer ${token}` },
        }),
        // … and one built per call.
        goneApp.inject({ url: '/api/merchants', headers: STORE }),
      ]);
      for (const answer of answers) {
        expect(answer.statusCode).toBe(503);
        expect(answer.headers['retry-after']).toBe('5');
        expect(answer.json()).toMatchObject({ error: 'service_unavailable' });
      }
    } finally {
      await goneApp.close();
      await goneDeps.close();
      await gone.close();
    }
  });

  it('answers 503 with Retry-After when the database is gone', async () => {
    await handle.close();
    const answer = await app.inject({ method: 'GET', url: '/api/merchants', headers: STORE });
    expect(answer.statusCode).toBe(503);
    expect(answer.headers['retry-after']).toBe('5');
    expect(answer.json()).toMatchObject({ error: 'service_unavailable' });
  });
});
