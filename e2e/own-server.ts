import { type ChildProcess, spawn } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { test as base } from './fixtures';

const SERVER = fileURLToPath(new URL('../apps/server/dist/server.js', import.meta.url));

/** A port the system has free right now. */
function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const address = probe.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      probe.close(() => resolve(port));
    });
  });
}

async function waitForHealth(origin: string, child: ChildProcess, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (child.exitCode !== null)
      throw new Error(`the server exited with ${child.exitCode} before it answered`);
    try {
      if ((await fetch(`${origin}/api/health`)).ok) return;
    } catch {
      // Not listening yet.
    }
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  throw new Error(`the server at ${origin} did not answer within ${timeoutMs} ms`);
}

export interface OwnServer {
  origin: string;
  port: number;
  /** The last lines the server wrote (its warnings and errors), for a failed test's report. */
  log(): string;
  stop(): Promise<void>;
}

/**
 * A server of the built site of its own, with its own database and business clock, for tests
 * that move the clock (`POST /dev/clock`) months ahead: on the shared e2e server that would
 * expire other tests' codes and periods while they run. Jobs run only when a test asks
 * (`POST /dev/jobs/run-due`), so what is due is what the test made due.
 */
export async function startOwnServer(env: Record<string, string> = {}): Promise<OwnServer> {
  // A fresh database is migrated and seeded at its first start, the larger part of a start: with
  // the e2e settings, start from a copy of one made so once per run (a stopped server's data).
  const dataDir = env.DATA_DIR ?? mkdtempSync(path.join(tmpdir(), 'tunes-e2e-own-'));
  const fresh = !existsSync(path.join(dataDir, 'pgdata'));
  const fromTemplate = fresh && TEMPLATE_SAFE(env) ? await templateData() : undefined;
  if (fromTemplate) cpSync(fromTemplate, path.join(dataDir, 'pgdata'), { recursive: true });
  const server = await launch({ ...env, DATA_DIR: dataDir });
  if (env.DATA_DIR) return server;
  // A directory made here goes with its server (each is ~40 MB).
  return {
    ...server,
    stop: async () => {
      await server.stop();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/** Settings that shape the database at its first start: a server given any starts from nothing. */
const TEMPLATE_SAFE = (env: Record<string, string>) =>
  !['DATABASE_URL', 'SEED_DEMO_DATA', 'NODE_ENV'].some((name) => name in env);

/**
 * The `pgdata` of a server started once with the e2e settings and stopped, made by the first
 * worker that asks (a directory made with mkdir is the lock; E2E_OWN_TEMPLATE is set by the
 * config, so every worker of the run shares it); undefined when there is none to use.
 */
async function templateData(): Promise<string | undefined> {
  const root = process.env.E2E_OWN_TEMPLATE;
  if (!root) return undefined;
  const data = path.join(root, 'data');
  const ready = path.join(root, 'ready');
  if (existsSync(ready)) return path.join(data, 'pgdata');
  try {
    mkdirSync(path.join(root, 'making'));
  } catch {
    // Another worker makes it: wait for it (or start from nothing if it fails).
    const deadline = Date.now() + 90_000;
    while (!existsSync(ready) && !existsSync(path.join(root, 'failed')) && Date.now() < deadline)
      await new Promise((resolve) => setTimeout(resolve, 200));
    return existsSync(ready) ? path.join(data, 'pgdata') : undefined;
  }
  try {
    await (await launch({ DATA_DIR: data })).stop();
    writeFileSync(ready, '');
    return path.join(data, 'pgdata');
  } catch {
    writeFileSync(path.join(root, 'failed'), '');
    return undefined;
  }
}

async function launch(env: Record<string, string>): Promise<OwnServer> {
  const port = await freePort();
  const origin = `http://localhost:${port}`;
  let output = '';
  const child = spawn(process.execPath, [SERVER], {
    cwd: fileURLToPath(new URL('.', import.meta.url)),
    stdio: ['ignore', 'pipe', 'pipe'],
    env: {
      ...process.env,
      NODE_ENV: 'development',
      PORT: String(port),
      HOST: '127.0.0.1',
      PUBLIC_URL: origin,
      DATABASE_URL: '',
      WEB_DIST_DIR: process.env.E2E_WEB_DIST_DIR ?? '',
      LOG_LEVEL: 'warn',
      SEED_DEMO_DATA: 'true',
      PAYMENT_CHECK_INTERVAL_SECONDS: '0',
      SENDS_PER_CLIENT_HOURLY: '100000',
      SMS_HOURLY_BUDGET: '100000',
      REDIS_URL: '',
      ...env,
    },
  });
  const keep = (chunk: Buffer) => {
    output = (output + chunk.toString()).slice(-8000);
  };
  child.stdout?.on('data', keep);
  child.stderr?.on('data', keep);
  try {
    await waitForHealth(origin, child, 60_000);
  } catch (error) {
    child.kill('SIGKILL');
    throw new Error(`${(error as Error).message}\n${output}`);
  }
  return {
    origin,
    port,
    log: () => output,
    stop: () =>
      new Promise<void>((resolve) => {
        if (child.exitCode !== null) return resolve();
        const killer = setTimeout(() => child.kill('SIGKILL'), 10_000);
        child.once('exit', () => {
          clearTimeout(killer);
          resolve();
        });
        child.kill('SIGTERM');
      }),
  };
}

/**
 * The fixtures' `test` on a server of its own for the whole file (started when a worker comes to
 * the file, stopped when it moves on), started with `env` on top of the e2e settings: the API
 * helpers (sign-in, outbox) address it by E2E_PORT during each test, and the shared one after.
 */
export function testOnServerWith(env: Record<string, string>) {
  return base.extend<{ ownServer: OwnServer; onOwnServer: undefined }, { ownServers: ServerOfFile }>({
    // A worker runs file after file: the server is the file's, so one file's clock, plans and
    // messages never reach the next file's tests.
    ownServers: [
      // biome-ignore lint/correctness/noEmptyPattern: Playwright reads a fixture's needs from this pattern; it needs none.
      async ({}, use) => {
        const current: ServerOfFile = { file: undefined, server: undefined };
        await use(current);
        await current.server?.stop();
      },
      { scope: 'worker' },
    ],
    // Its own time, as a worker fixture has: a start does not eat the first test's.
    ownServer: [
      async ({ ownServers }, use, testInfo) => {
        if (ownServers.file !== testInfo.file || !ownServers.server) {
          await ownServers.server?.stop();
          ownServers.server = undefined;
          ownServers.server = await startOwnServer(env);
          ownServers.file = testInfo.file;
        }
        await use(ownServers.server);
      },
      { timeout: 120_000 },
    ],
    onOwnServer: [
      async ({ ownServer }, use, testInfo) => {
        const shared = process.env.E2E_PORT;
        process.env.E2E_PORT = String(ownServer.port);
        await use(undefined);
        process.env.E2E_PORT = shared;
        // The last of what the server wrote goes with a failed test's report (the CI log shows it).
        if (testInfo.status !== testInfo.expectedStatus)
          await testInfo.attach('own server log', {
            body: ownServer.log() || '(nothing written)',
            contentType: 'text/plain',
          });
      },
      { auto: true },
    ],
    baseURL: async ({ ownServer }, use) => {
      await use(ownServer.origin);
    },
  });
}

/** The server a worker runs for the file it is in. */
interface ServerOfFile {
  file: string | undefined;
  server: OwnServer | undefined;
}

/** The fixtures' `test` on a server of its own for the whole file, with the e2e settings. */
export const testOnOwnServer = testOnServerWith({});
