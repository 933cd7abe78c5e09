import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { sql } from 'kysely';
import { afterAll, describe, expect, inject, it } from 'vitest';
import { openDatabase } from '../../src/db/database.js';
import { migrateToLatest } from '../../src/db/migrate.js';
import { AccessTokens } from '../../src/lib/access-tokens.js';
import { bearer, createUser } from '../helpers/factories.js';
import { createDatabaseFromTemplate } from '../helpers/postgres.js';
import { testDatabaseKind } from '../helpers/test-app.js';

/**
 * A server killed outright (SIGKILL: no shutdown hook, no PGlite checkpoint) in the middle of a
 * stream of writes must come back with every write it acknowledged, on PGlite (DATA_DIR) and on
 * PostgreSQL. The server is the real entry point (`src/server.ts`) in its own process.
 */
const serverEntry = fileURLToPath(new URL('../../src/server.ts', import.meta.url));
const JWT_SECRET = 'durability-test-secret-0123456789abcdef';
/** Acknowledged writes to collect before the kill; writers keep going until the process dies. */
const ACKNOWLEDGED_BEFORE_KILL = 150;
const WRITERS = 8;

const cleanups: (() => Promise<void> | void)[] = [];
afterAll(async () => {
  for (const cleanup of cleanups.reverse()) await cleanup();
});

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const address = probe.address();
      probe.close(() => resolve(typeof address === 'object' && address ? address.port : 0));
    });
  });
}

interface RunningServer {
  child: ChildProcess;
  baseUrl: string;
  output: () => string;
}

async function startServer(database: { DATA_DIR?: string; DATABASE_URL?: string }): Promise<RunningServer> {
  const port = await freePort();
  const { TEST_DATABASE: _kind, DATABASE_URL: _url, ...inherited } = process.env;
  const child = spawn(process.execPath, ['--import', 'tsx', '--conditions', 'source', serverEntry], {
    cwd: path.dirname(serverEntry),
    env: {
      ...inherited,
      NODE_ENV: 'test',
      HOST: '127.0.0.1',
      PORT: String(port),
      LOG_LEVEL: 'warn',
      SEED_DEMO_DATA: 'false',
      WEB_DIST_DIR: '/nonexistent',
      PAYMENT_CHECK_INTERVAL_SECONDS: '0',
      JWT_SECRET,
      ...database,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout?.on('data', (chunk) => {
    output += chunk;
  });
  child.stderr?.on('data', (chunk) => {
    output += chunk;
  });
  cleanups.push(() => {
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
  });
  const baseUrl = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 60_000;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`The server exited during start-up:\n${output}`);
    const healthy = await fetch(`${baseUrl}/api/health`)
      .then((response) => response.ok)
      .catch(() => false);
    if (healthy) return { child, baseUrl, output: () => output };
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  child.kill('SIGKILL');
  throw new Error(`The server did not answer /api/health within 60 s:\n${output}`);
}

function exited(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => child.once('exit', () => resolve()));
}

/** Streams cache-item writes from several writers, SIGKILLs the server mid-stream, returns the acknowledged keys. */
async function writeUntilKilled(server: RunningServer, token: string, round: string): Promise<Set<string>> {
  const acknowledged = new Set<string>();
  let next = 0;
  let killed = false;
  const writer = async () => {
    while (!killed) {
      const key = `${round}-${String(next++).padStart(5, '0')}`;
      try {
        const response = await fetch(`${server.baseUrl}/api/cache/item`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', ...bearer(token) },
          body: JSON.stringify({ key, value: `value of ${key}` }),
        });
        if (response.status === 200) acknowledged.add(key);
        else throw new Error(`write ${key} answered ${response.status}: ${await response.text()}`);
      } catch (error) {
        if (killed) return;
        throw error;
      }
      if (acknowledged.size >= ACKNOWLEDGED_BEFORE_KILL && !killed) {
        killed = true;
        server.child.kill('SIGKILL');
      }
    }
  };
  await Promise.all(Array.from({ length: WRITERS }, writer));
  await exited(server.child);
  expect(server.child.signalCode).toBe('SIGKILL');
  return acknowledged;
}

interface DatabaseUnderTest {
  env: { DATA_DIR?: string; DATABASE_URL?: string };
  open(): ReturnType<typeof openDatabase>;
}

async function prepareDatabase(): Promise<DatabaseUnderTest> {
  if (testDatabaseKind === 'postgres') {
    const created = await createDatabaseFromTemplate(
      process.env.DATABASE_URL ?? '',
      inject('postgresTemplate'),
    );
    cleanups.push(async () => {
      await created.drop();
    });
    return {
      env: { DATABASE_URL: created.url },
      open: () => openDatabase({ kind: 'postgres', url: created.url, poolSize: 2 }),
    };
  }
  const dataDir = mkdtempSync(path.join(tmpdir(), 'tunes-durability-'));
  cleanups.push(() => rmSync(dataDir, { recursive: true, force: true }));
  return { env: { DATA_DIR: dataDir }, open: () => openDatabase({ kind: 'pglite', dataDir }) };
}

describe(`durability on ${testDatabaseKind}`, () => {
  it('keeps every acknowledged write through a SIGKILL mid-stream, and the data opens and takes writes again', async () => {
    const database = await prepareDatabase();
    // The user exists before the server starts (PGlite allows one process on a data directory).
    const setup = await database.open();
    await migrateToLatest(setup.db);
    const user = await createUser(setup.db);
    await setup.close();
    const token = await new AccessTokens(JWT_SECRET, 3600).sign(user.id);

    const first = await startServer(database.env);
    const acknowledged = await writeUntilKilled(first, token, 'stream');

    // The restart proves the data opens after the kill; it takes a write, then stops cleanly.
    const second = await startServer(database.env);
    const afterRestart = await fetch(`${second.baseUrl}/api/cache/item`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...bearer(token) },
      body: JSON.stringify({ key: 'after-restart', value: 'value of after-restart' }),
    });
    expect(afterRestart.status).toBe(200);
    second.child.kill('SIGTERM');
    await exited(second.child);
    expect(second.child.exitCode).toBe(0);

    const reopened = await database.open();
    try {
      const stored = await reopened.db
        .selectFrom('cache_items')
        .select(['key', 'value'])
        .where('user_id', '=', user.id)
        .execute();
      const storedKeys = new Map(stored.map((row) => [row.key, row.value]));
      expect(acknowledged.size).toBeGreaterThanOrEqual(ACKNOWLEDGED_BEFORE_KILL);
      expect(
        [...acknowledged, 'after-restart'].filter((key) => storedKeys.get(key) !== `value of ${key}`),
      ).toEqual([]);
      const integrity = await sql<{ ok: number }>`select count(*)::int as ok from cache_items`.execute(
        reopened.db,
      );
      expect(integrity.rows[0]?.ok).toBe(stored.length);
    } finally {
      await reopened.close();
    }
  }, 240_000);
});
