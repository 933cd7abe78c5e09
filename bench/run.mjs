// `npm run bench`: the figures of docs/performance.md, printed and written to bench/results/.
// Builds the production site and server (`npm run build`), then measures (never fails on a time):
//   API      autocannon against the production server on 127.0.0.1, on PGlite and on PostgreSQL
//   growth   the same calls with 1,000 and with 1,000,000 generated users
//   start-up the built server answering `/` on a fresh and on a filled PGlite DATA_DIR
//   web      Lighthouse (mobile and desktop) on / and /premium; compressed JS/CSS per route
//   renewals bench/renewals.mjs in its own process (`npm run bench:renewals`)
//   launch   bench/launch-day.mjs in its own process (`npm run bench:launch`): the launch day
// Every API figure is taken in BENCH_ROUNDS (3) rounds (each call in turn, round after round), with
// the server's CPU per request read from its own counters; the summary gives the median and the
// spread (min–max) of the rounds.
// Options (environment): BENCH_SECONDS (5), BENCH_CONNECTIONS (50), BENCH_ROUNDS (3),
//   BENCH_USERS_LARGE (1000000),
//   BENCH_POSTGRES_URL (default DATABASE_URL, else postgres://postgres@127.0.0.1:5432/postgres;
//   a database tunes_bench_<pid> is created there and dropped),
//   BENCH_SKIP=startup,pglite,web,postgres,growth,renewals,launch (any of them),
//   BENCH_RENEWALS (100000), and the BENCH_LAUNCH_* options of bench/launch-day.mjs.
// A/B mode: BENCH_AB=<git ref> measures one call on this checkout and on that ref over several
//   process starts of each build, alternated, instead of the above (bench/ab.mjs says how).
// Output: bench/results/<start time>.json (not kept in git) and bench/results/latest.json.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { cpus, tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { JWT_SECRET, startAppServer } from './lib/app-server.mjs';
import { buildProduction } from './lib/build.mjs';
import { measureRoutes } from './lib/bundle-size.mjs';
import { createPostgresDatabase, distOf, fillDatabase } from './lib/databases.mjs';
import { runLighthouse } from './lib/lighthouse.mjs';
import { measure } from './lib/load.mjs';
import { siteRoutes } from './lib/routes.mjs';
import { aggregate, printSummary } from './lib/summary.mjs';

if (process.env.BENCH_AB) {
  await import('./ab.mjs');
  process.exit(process.exitCode ?? 0);
}

const root = fileURLToPath(new URL('..', import.meta.url));
const seconds = Number(process.env.BENCH_SECONDS ?? 5);
const connections = Number(process.env.BENCH_CONNECTIONS ?? 50);
const rounds = Number(process.env.BENCH_ROUNDS ?? 3);
const largeUsers = Number(process.env.BENCH_USERS_LARGE ?? 1_000_000);
const smallUsers = 1_000;
/** The generated listener whose calls are measured: a Family owner with two members and a code. */
const BENCH_USER = 999;
const skip = new Set((process.env.BENCH_SKIP ?? '').split(',').filter(Boolean));
const chromePath = [process.env.CHROME_PATH, '/usr/bin/chromium', '/usr/bin/chromium-browser'].find(
  (candidate) => candidate && existsSync(candidate),
);
const startedAt = Date.now();
/** The site's pages are measured once, on the first database benched. */
const webDatabase = skip.has('pglite') ? 'postgres' : 'pglite';
const work = mkdtempSync(path.join(tmpdir(), 'tunes-bench-'));
const log = (line) => process.stdout.write(`${line}\n`);
const elapsed = () => `${Math.round((Date.now() - startedAt) / 1000)}s`;

const results = {
  startedAt: new Date(startedAt).toISOString(),
  machine: { node: process.version, cpus: cpus().length },
  settings: {
    seconds,
    connections,
    rounds,
    smallUsers,
    largeUsers,
    databasePoolSize: process.env.DATABASE_POOL_SIZE ?? 'default',
  },
  api: [],
  startup: {},
  web: {},
};

log(`[${elapsed()}] building the production site and server (npm run build)`);
const webDir = buildProduction(root);
const { AccessTokens } = await distOf(root)('lib/access-tokens.js');

/** The calls measured, as the site sends them (`Accept-Encoding: br, gzip`, `StoreId: MNCO`). */
async function callsOf(ids) {
  const token = await new AccessTokens(JWT_SECRET, 3600).sign(ids.userId);
  const browser = { storeid: 'MNCO', 'accept-encoding': 'br, gzip', accept: 'application/json' };
  const authed = { ...browser, authorization: `Bearer ${token}` };
  return [
    ['GET /api/landing-page', '/api/landing-page', browser],
    ['GET /api/landing-page/contents/list/ALL', '/api/landing-page/contents/list/ALL', browser],
    ['GET /api/packages/allplans', '/api/packages/allplans?merchantId=14', browser],
    ['GET /api/users/{sub}/profile', `/api/users/${ids.userId}/profile`, authed],
    [
      'GET /api/subscription/{id}/invitation-codes/',
      `/api/subscription/${ids.subscriptionId}/invitation-codes/`,
      authed,
    ],
  ];
}

async function measureApi(server, database, users, ids, databasePids) {
  const calls = await callsOf(ids);
  // Rounds take every call in turn, so a burst of other load on the machine shows as spread
  // between rounds rather than as a shifted median.
  for (let round = 1; round <= rounds; round++) {
    log(`[${elapsed()}] ${database}, ${users} users, round ${round}/${rounds}`);
    for (const [name, url, headers] of calls) {
      const check = await fetch(`${server.baseUrl}${url}`, { headers });
      // The answer as sent: its coding and bytes on the wire (fetch decodes the body).
      const answer = {
        encoding: check.headers.get('content-encoding') ?? 'identity',
        bytes: (await check.arrayBuffer()).byteLength,
      };
      answer.wireBytes = Number(check.headers.get('content-length') ?? answer.bytes);
      const figures = await measure(`${server.baseUrl}${url}`, {
        connections,
        seconds,
        headers,
        pids: [server.pid],
        extraPids: databasePids,
      });
      results.api.push({ database, users, round, call: name, status: check.status, answer, ...figures });
      const database_ = figures.databaseCpuMicrosPerRequest;
      log(
        `[${elapsed()}]   ${name.padEnd(46)} ${String(figures.requestsPerSecond).padStart(6)} req/s  p50 ${figures.latencyMs.p50} ms  p99 ${figures.latencyMs.p99} ms  CPU ${figures.cpuMicrosPerRequest} µs/req${database_ === undefined ? '' : ` (PostgreSQL ${database_} µs)`}  (status ${check.status}, ${answer.bytes} bytes sent as ${answer.wireBytes} ${answer.encoding}, non-2xx ${figures.non2xx})`,
      );
    }
  }
}

async function benchDatabase(database, { databaseOptions, serverOptions, dropDatabase, databasePids }) {
  log(`[${elapsed()}] ${database}: migrating, seeding and generating ${smallUsers} users`);
  const small = await fillDatabase(root, databaseOptions, { from: 1, to: smallUsers, benchUser: BENCH_USER });
  results[`${database}Small`] = { generatedMs: small.generatedMs, counts: small.counts };
  let server = await startAppServer(root, { ...serverOptions, webDir });
  try {
    await measureApi(server, database, smallUsers, small.ids, databasePids);
    if (database === webDatabase && !skip.has('web') && chromePath) {
      // The listener's own pages send a visitor to /; they are loaded signed in as well.
      const token = await new AccessTokens(JWT_SECRET, 3600).sign(small.ids.userId);
      const session = JSON.stringify({ sub: small.ids.userId, access_token: token, refresh_token: 'bench' });
      const routes = [...siteRoutes(), ...['/profile', '/profile-edit'].map((route) => ({ route, session }))];
      log(`[${elapsed()}] web: compressed JS/CSS of ${routes.length} route loads`);
      results.web.routes = await measureRoutes(
        server.baseUrl.replace('127.0.0.1', 'localhost'),
        routes,
        webDir,
        chromePath,
      );
      log(`[${elapsed()}] web: Lighthouse on / and /premium (mobile, desktop)`);
      results.web.lighthouse = await runLighthouse(
        server.baseUrl.replace('127.0.0.1', 'localhost'),
        ['/', '/premium'],
        chromePath,
      );
    }
  } finally {
    await server.stop();
  }
  if (skip.has('growth')) return dropDatabase?.();

  log(`[${elapsed()}] ${database}: growing to ${largeUsers} users`);
  const large = await fillDatabase(root, databaseOptions, {
    from: smallUsers + 1,
    to: largeUsers,
    benchUser: BENCH_USER,
  });
  results[`${database}Large`] = { generatedMs: large.generatedMs, counts: large.counts };
  log(
    `[${elapsed()}] ${database}: generated in ${Math.round(large.generatedMs / 1000)} s (${JSON.stringify(large.counts)})`,
  );
  server = await startAppServer(root, { ...serverOptions, webDir });
  try {
    await measureApi(server, database, largeUsers, large.ids, databasePids);
  } finally {
    await server.stop();
    await dropDatabase?.();
  }
}

/** A bench of its own in its own process; its figures are read from its `-latest.json`. */
function runPart(script, latest, env = {}) {
  const outcome = spawnSync(process.execPath, [path.join(root, script)], {
    cwd: root,
    env: { ...process.env, ...env },
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  process.stdout.write(outcome.stdout ?? '');
  const file = path.join(root, 'bench/results', latest);
  if (outcome.status === 0 && existsSync(file)) return JSON.parse(readFileSync(file, 'utf8'));
  log(`${script}: the benchmark failed (exit ${outcome.status})`);
  return undefined;
}

try {
  if (!skip.has('startup')) {
    // Start-up budget: `/` answered by the built server on a fresh PGlite DATA_DIR, then again on it.
    const freshDir = path.join(work, 'startup');
    const fresh = await startAppServer(root, { dataDir: freshDir, webDir });
    await fresh.stop();
    const warm = await startAppServer(root, { dataDir: freshDir, webDir });
    await warm.stop();
    results.startup = { freshDataDirMs: fresh.startupMs, existingDataDirMs: warm.startupMs };
    log(
      `[${elapsed()}] start-up: / answered after ${fresh.startupMs} ms (fresh DATA_DIR), ${warm.startupMs} ms (existing)`,
    );
  }

  if (!skip.has('pglite')) {
    const dataDir = path.join(work, 'pglite');
    await benchDatabase('pglite', {
      databaseOptions: { kind: 'pglite', dataDir },
      serverOptions: { dataDir },
    });
  }

  if (!skip.has('postgres')) {
    const postgres = await createPostgresDatabase(`tunes_bench_${process.pid}`).catch((error) => {
      log(`[${elapsed()}] PostgreSQL not reachable (${error.message}); skipped`);
    });
    if (postgres) {
      try {
        await benchDatabase('postgres', {
          databaseOptions: { kind: 'postgres', url: postgres.url, poolSize: 2 },
          serverOptions: { databaseUrl: postgres.url },
          // The server's pooled connections: their CPU is the database's share of each call.
          databasePids: postgres.pids,
        });
      } finally {
        await postgres.drop();
      }
    }
  }
} finally {
  rmSync(work, { recursive: true, force: true });
}

if (!skip.has('renewals')) {
  log(
    `[${elapsed()}] renewals: ${process.env.BENCH_RENEWALS ?? 100_000} due on one day, reminded then charged by the job queue`,
  );
  results.renewals = runPart('bench/renewals.mjs', 'renewals-latest.json');
}
if (!skip.has('launch')) {
  log(`[${elapsed()}] launch day (bench/launch-day.mjs)`);
  results.launch = runPart('bench/launch-day.mjs', 'launch-latest.json', { BENCH_NO_BUILD: '1' });
}

results.apiSummary = aggregate(results.api);
results.finishedAt = new Date().toISOString();
results.durationSeconds = Math.round((Date.now() - startedAt) / 1000);
mkdirSync(path.join(root, 'bench/results'), { recursive: true });
const stamp = results.startedAt.replace(/[:.]/g, '-');
writeFileSync(path.join(root, 'bench/results', `${stamp}.json`), `${JSON.stringify(results, null, 2)}\n`);
writeFileSync(path.join(root, 'bench/results/latest.json'), `${JSON.stringify(results, null, 2)}\n`);
printSummary(results, log);
log(`\nWritten to bench/results/${stamp}.json and bench/results/latest.json (${results.durationSeconds} s).`);
