// `npm run bench:launch` (and the `launch` part of `npm run bench`): the launch-day budget of
// DESIGN §6 on PostgreSQL, with the production build (`npm run build`) of the server and site.
//
// The load, an open model (fixed arrival rates, bench/lib/launch-load.mjs in a process of its own):
//   - BENCH_LAUNCH_JOURNEYS (50) sign-up-and-buy journeys arrive each second, each a new visitor
//     with a number and an address of its own, call for call as the site makes them in Chromium
//     (bench/lib/launch-journeys.mjs): `/`, `/premium`, the phone-code sign-in (requestotp, the
//     code read from `GET /dev/outbox`, validateotp, grantUrl, the msisdn grant answering 604,
//     registerbymsisdn, the grant, getlogins, profile), `/premium` again signed in (merchants,
//     plans, profile), then the purchase: every other journey by card (checkout, the sandbox
//     gateway's card page, pay with 4242…, the return through the server, `/success`) and the
//     others by QPay (checkout, the status poll, the sandbox bank app's screen and approve, which
//     calls the server back, the status poll answering paid); last the /success page's calls
//     (invoice paid, profile, receipt). The plans are bought in turn: Premium, Duo, Family.
//   - BENCH_LAUNCH_LISTENER_RPS (1,000) calls a second from existing listeners' apps: one in
//     BENCH_LAUNCH_REFRESH_EVERY (5) is a refresh-token grant (the token rotates; the listener's
//     next refresh uses the new one), the others read the profile. BENCH_LAUNCH_LISTENERS
//     (20,000) generated listeners, a third of them subscribers, each signed in once.
// A BENCH_LAUNCH_WARMUP_SECONDS (10) warm-up at the full rates is not counted; then the arrivals of
// BENCH_LAUNCH_SECONDS (60) are measured, and the load goes on until their journeys are done.
// Per-address limits: every visitor and listener comes from an address of its own, sent as
// X-Forwarded-For and believed because the server runs with TRUST_PROXY=127.0.0.1 (the documented
// setting for a site behind a proxy, DESIGN §7), so the per-address caps stay on and count each
// visitor apart. The site-wide SMS budget (SMS_HOURLY_BUDGET, 1,000 an hour by default) is set
// to 1,000,000, as an operator does for a launch.
// The server: production never mounts the sandboxes or /dev (DESIGN §7), so the built server runs
// as a staging site (NODE_ENV=development, JSON logs, no API docs) with its in-process sandboxes
// (bench/lib/app-server.mjs); BENCH_REDIS_URL gives it REDIS_URL (limits in Redis).
// BENCH_LAUNCH_PROCESSES (1) server processes share the database (DESIGN §1's scale-out: the API
// is stateless); the generator spreads its requests over them in turn, as a balancer would.
// Afterwards the clock moves 31 s and the due jobs run once (the payment check takes a capture
// whose call back the stop cut off), then the books are checked (`GET /dev/books?graceSeconds=0`,
// the check of `npm run admin -- books:check`, without the grace given to captures on their way).
// Prints each step's count, errors and p50/p90/p99/max in ms, completed journeys a second, the CPU
// of the server, PostgreSQL and the load generator, and the budget; writes
// bench/results/launch-latest.json. BENCH_NO_BUILD=1 uses the build that is there.
import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { JWT_SECRET, startAppServer } from './lib/app-server.mjs';
import { buildProduction } from './lib/build.mjs';
import { cpuMs } from './lib/cpu.mjs';
import { createPostgresDatabase, fillDatabase } from './lib/databases.mjs';
import { signInListeners } from './lib/launch-listeners.mjs';
import { launchBudgets, printLaunch } from './lib/launch-summary.mjs';

const root = fileURLToPath(new URL('..', import.meta.url));
const number = (name, fallback) => Number(process.env[name] ?? fallback);
const settings = {
  warmupSeconds: number('BENCH_LAUNCH_WARMUP_SECONDS', 10),
  seconds: number('BENCH_LAUNCH_SECONDS', 60),
  journeysPerSecond: number('BENCH_LAUNCH_JOURNEYS', 50),
  listenerRequestsPerSecond: number('BENCH_LAUNCH_LISTENER_RPS', 1000),
  refreshEvery: number('BENCH_LAUNCH_REFRESH_EVERY', 5),
  listeners: number('BENCH_LAUNCH_LISTENERS', 20_000),
  /** Server processes on the one database, the load spread over them as a balancer would. */
  processes: number('BENCH_LAUNCH_PROCESSES', 1),
  drainSeconds: 60,
};
const log = (line) => process.stdout.write(`${line}\n`);
const startedAt = Date.now();
const elapsed = () => `${Math.round((Date.now() - startedAt) / 1000)}s`;

/** Runs the load generator; resolves with its figures (its own CPU among them). */
function runLoad(settingsFile) {
  const child = spawn(process.execPath, [path.join(root, 'bench/lib/launch-load.mjs'), settingsFile], {
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  let output = '';
  child.stdout.on('data', (chunk) => {
    output += chunk;
  });
  return new Promise((resolve, reject) => {
    child.on('exit', (code) => {
      if (code !== 0) return reject(new Error(`the load generator exited with ${code}`));
      resolve(JSON.parse(output));
    });
  });
}

const work = mkdtempSync(path.join(tmpdir(), 'tunes-launch-'));
const results = {
  startedAt: new Date(startedAt).toISOString(),
  machine: { node: process.version, cpus: cpus().length, loadAverageAtStart: loadavg()[0] },
  settings: {
    ...settings,
    server:
      'production build, NODE_ENV=development (sandboxes and /dev mounted), TRUST_PROXY=127.0.0.1, SMS_HOURLY_BUDGET=1000000',
    redis: Boolean(process.env.BENCH_REDIS_URL),
  },
};
let database;
const servers = [];
try {
  let webDir = path.join(root, 'apps/web/dist');
  if (process.env.BENCH_NO_BUILD !== '1') {
    log(`[${elapsed()}] launch day: npm run build`);
    webDir = buildProduction(root);
  }
  database = await createPostgresDatabase(`tunes_launch_${process.pid}`);
  const databaseOptions = { kind: 'postgres', url: database.url, poolSize: 4 };
  log(
    `[${elapsed()}] launch day: generating and signing in ${settings.listeners.toLocaleString('en')} listeners`,
  );
  await fillDatabase(root, databaseOptions, { from: 1, to: settings.listeners, benchUser: 1 });
  const listeners = await signInListeners(root, databaseOptions, { jwtSecret: JWT_SECRET });
  const listenersFile = path.join(work, 'listeners.json');
  writeFileSync(listenersFile, JSON.stringify(listeners));

  // One after another: each migrates and seeds on start, and finds the work done by the first.
  for (let index = 0; index < settings.processes; index++) {
    servers.push(
      await startAppServer(root, {
        databaseUrl: database.url,
        webDir,
        sandboxes: true,
        env: {
          TRUST_PROXY: '127.0.0.1',
          SMS_HOURLY_BUDGET: '1000000',
          ...(process.env.BENCH_REDIS_URL ? { REDIS_URL: process.env.BENCH_REDIS_URL } : {}),
        },
      }),
    );
  }
  const [server] = servers;
  const settingsFile = path.join(work, 'load.json');
  writeFileSync(
    settingsFile,
    JSON.stringify({ ...settings, baseUrls: servers.map((each) => each.baseUrl), listenersFile }),
  );
  log(
    `[${elapsed()}] launch day: ${settings.journeysPerSecond} journeys/s and ${settings.listenerRequestsPerSecond} listener calls/s, ${settings.warmupSeconds} s warm-up then ${settings.seconds} s measured`,
  );
  const serversCpu = () => servers.reduce((total, each) => total + cpuMs(each.pid), 0);
  const serverCpuBefore = serversCpu();
  const backendsBefore = new Map((await database.pids()).map((pid) => [pid, cpuMs(pid)]));
  const figures = await runLoad(settingsFile);
  const backendsAfter = await database.pids();
  const wallSeconds = figures.loadSeconds;
  const cores = (ms) => Math.round((ms / 1000 / wallSeconds) * 100) / 100;
  results.cpuCores = {
    server: cores(serversCpu() - serverCpuBefore),
    // Backends that closed during the run are not counted; new ones from their start.
    postgres: cores(
      backendsAfter.reduce(
        (total, pid) => total + Math.max(0, cpuMs(pid) - (backendsBefore.get(pid) ?? 0)),
        0,
      ),
    ),
    loadGenerator: cores(figures.cpuMs),
  };
  Object.assign(results, figures);

  // A journey the generator left unfinished may have paid at a provider whose call back has not
  // been answered yet: the payment check (`payments.reconcile`, which asks the providers about
  // invoices 30 s old) takes such a capture in production. So the clock moves past those 30 s and
  // the due jobs run once before the books are checked, with no grace.
  log(`[${elapsed()}] launch day: the payment check, then the books`);
  const moved = await fetch(`${server.baseUrl}/dev/clock`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ advanceSeconds: 31 }),
  });
  if (!moved.ok) throw new Error(`POST /dev/clock answered ${moved.status}`);
  const due = await fetch(`${server.baseUrl}/dev/jobs/run-due`, { method: 'POST' });
  if (!due.ok) throw new Error(`POST /dev/jobs/run-due answered ${due.status}`);
  const books = await fetch(`${server.baseUrl}/dev/books?graceSeconds=0`);
  const report = await books.json();
  results.books = {
    status: books.status,
    invoicesAsked: report.invoicesAsked,
    mismatches: report.mismatches ?? [],
    unchecked: report.unchecked ?? [],
    truncated: report.truncated,
  };
  results.budget = launchBudgets(results);
} finally {
  await Promise.all(servers.map((each) => each.stop()));
  await database?.drop();
  rmSync(work, { recursive: true, force: true });
}

results.durationSeconds = Math.round((Date.now() - startedAt) / 1000);
mkdirSync(path.join(root, 'bench/results'), { recursive: true });
writeFileSync(path.join(root, 'bench/results/launch-latest.json'), `${JSON.stringify(results, null, 2)}\n`);
printLaunch(results, log);
log(`\nWritten to bench/results/launch-latest.json (${results.durationSeconds} s).`);
