import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../src/app.js';
import { loadConfig } from '../../src/config.js';
import { openDatabase } from '../../src/db/database.js';
import { migrateToLatest } from '../../src/db/migrate.js';
import { createDeps } from '../../src/deps.js';
import { STORE } from '../helpers/factories.js';

/**
 * The one error handler's last branches: a failure we did not expect answers 500 without its
 * details, and a database that is gone answers 503 with Retry-After, both in the one shape.
 */
const handle = await openDatabase({ kind: 'pglite' });
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

  it('answers 503 with Retry-After when the database is gone', async () => {
    await handle.close();
    const answer = await app.inject({ method: 'GET', url: '/api/merchants', headers: STORE });
    expect(answer.statusCode).toBe(503);
    expect(answer.headers['retry-after']).toBe('5');
    expect(answer.json()).toMatchObject({ error: 'service_unavailable' });
  });
});
