import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
// @ts-expect-error: plain-JavaScript helpers shared with the bench.
import { freePort, waitFor } from '../../../bench/lib/processes.mjs';
import {
  commandOf,
  endLeftovers,
  processesOf,
  refused,
  runNpm,
  stopNpm,
  waitForOutput,
} from './npm-processes.js';

/**
 * Every npm script that starts processes stops them all when the npm process alone gets SIGINT or
 * SIGTERM, as a process manager or `kill` sends it (docs/operations.md "Stopping"). Each run
 * starts the script as an operator would (`npm run …`), notes every process below npm, signals
 * npm, and expects none of them running 15 s later. Needs a build (serve, cluster), and
 * PostgreSQL, Redis and HAProxy for the cluster. `npm start` is stopped in a copy of the tree, as
 * it builds (npm-start.test.ts).
 */
const dataDir = mkdtempSync(path.join(tmpdir(), 'tunes-signals-'));

/** `npm <args>` with a PGlite server's environment, or what `env` sets. */
function npm(args: string[], env: Record<string, string>) {
  const { DATABASE_URL: _, REDIS_URL: __, ...inherited } = process.env;
  return runNpm(args, {
    ...inherited,
    NODE_ENV: 'development',
    HOST: '127.0.0.1',
    DATA_DIR: dataDir,
    LOG_LEVEL: 'warn',
    PAYMENT_CHECK_INTERVAL_SECONDS: '0',
    ...env,
  });
}

afterEach(endLeftovers);
afterAll(() => {
  rmSync(dataDir, { recursive: true, force: true });
});

describe.each(['SIGTERM', 'SIGINT'] as const)('%s to the npm process', (signal) => {
  it('`npm run serve` stops the server', async () => {
    const port = await freePort();
    const run = npm(['run', 'serve'], { PORT: String(port) });
    await waitFor(`http://127.0.0.1:${port}/api/health`, { child: run.npm, timeoutMs: 120_000 });
    expect(await stopNpm(run, signal)).toEqual([]);
    expect(await refused(`http://127.0.0.1:${port}/api/health`)).toBe(true);
  });

  it('`npm run dev` stops tsx and the server it watches', async () => {
    const port = await freePort();
    const run = npm(['run', 'dev'], { PORT: String(port) });
    await waitFor(`http://127.0.0.1:${port}/api/health`, { child: run.npm, timeoutMs: 120_000 });
    expect(await stopNpm(run, signal)).toEqual([]);
    expect(await refused(`http://127.0.0.1:${port}/api/health`)).toBe(true);
  });
});

const clusterDatabase = `tunes_signals_${process.pid}`;
const databaseUrl = (name: string) => {
  const url = new URL(process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres');
  url.pathname = `/${name}`;
  return url.toString();
};

describe.skipIf(!process.env.DATABASE_URL || !process.env.REDIS_URL)('`npm run cluster`', () => {
  const cluster = async () => {
    const port = await freePort();
    const run = npm(['run', 'cluster'], {
      DATABASE_URL: databaseUrl(clusterDatabase),
      REDIS_URL: `${(process.env.REDIS_URL ?? '').replace(/\/\d*$/, '')}/9`,
      CLUSTER_PROCESSES: '2',
      CLUSTER_PORT: String(port),
    });
    return { run, url: `http://127.0.0.1:${port}` };
  };
  afterAll(async () => {
    const admin = new pg.Client({ connectionString: databaseUrl('postgres') });
    await admin.connect();
    await admin.query(`drop database if exists ${clusterDatabase} with (force)`);
    await admin.end();
  });

  it('stops HAProxy and every API process on SIGTERM', async () => {
    const { run, url } = await cluster();
    await waitForOutput(run, 'behind HAProxy at', 180_000);
    expect((await fetch(`${url}/api/health`)).status).toBe(200);
    expect(await stopNpm(run, 'SIGTERM')).toEqual([]);
    expect(await refused(`${url}/api/health`)).toBe(true);
  });

  it('stops the processes it has started so far on SIGINT while it is still starting them', async () => {
    const { run } = await cluster();
    const deadline = Date.now() + 60_000;
    const startedServer = () => processesOf(run).some((pid) => commandOf(pid).includes('dist/server.js'));
    // The first API process runs (npm → node cluster.mjs → node server.js), HAProxy not yet.
    while (!startedServer() && Date.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    expect(startedServer()).toBe(true);
    expect(run.output()).not.toContain('behind HAProxy at');
    expect(await stopNpm(run, 'SIGINT')).toEqual([]);
  });
});
