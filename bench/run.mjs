// `npm run bench`: the figures of performance.md, printed and written to bench/results/*.json.
// Builds the production site and server, then measures (never fails on a time):
//   API      autocannon against the production server on 127.0.0.1, with a bare node:http
//            hello-world as the baseline in the same run, on PGlite and on PostgreSQL
//   growth   the same calls with 1,000 and with 1,000,000 generated users
//   start-up the built server answering `/` on a fresh and on a filled PGlite DATA_DIR
//   web      Lighthouse (mobile and desktop) on / and /premium; compressed JS/CSS per route
// Every API figure is taken in BENCH_ROUNDS (3) interleaved rounds (hello-world, then each call, per
// round), with the server's CPU per request read from its own counters; the summary gives the
// median and the spread (min–max) of the rounds.
// Options (environment): BENCH_SECONDS (5), BENCH_CONNECTIONS (50), BENCH_ROUNDS (3),
//   BENCH_USERS_LARGE (1000000),
//   BENCH_POSTGRES_URL (default DATABASE_URL, else postgres://postgres@127.0.0.1:5432/postgres;
//   a database tunes_bench_<pid> is created there and dropped),
//   BENCH_SKIP=startup,pglite,web,postgres,growth,renewals (any of them),
//   BENCH_RENEWALS (100000): the renewal budget, run by bench/renewals.mjs in its own process.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { JWT_SECRET, startAppServer } from './lib/app-server.mjs';
import { measureRoutes } from './lib/bundle-size.mjs';
import { benchIds, countRows, generateUsers } from './lib/generate-users.mjs';
import { runLighthouse } from './lib/lighthouse.mjs';
import { measure } from './lib/load.mjs';
import { freePort, startNode, stop, waitFor } from './lib/processes.mjs';
import { siteRoutes } from './lib/routes.mjs';
import { aggregate, printSummary } from './lib/summary.mjs';

const root = fileURLToPath(new URL('..', import.meta.url));
const seconds = Number(process.env.BENCH_SECONDS ?? 5);
const connections = Number(process.env.BENCH_CONNECTIONS ?? 50);
const rounds = Number(process.env.BENCH_ROUNDS ?? 3);
const largeUsers = Number(process.env.BENCH_USERS_LARGE ?? 1_000_000);
const smallUsers = 1_000;
/** The generated listener whose calls are measured: a Family owner with two members and a code. */
const BENCH_USER = 999;
/** The call name of the landing budget's floor (bench/lib/same-bytes.mjs). */
const SAME_BYTES = 'landing bytes from bare node:http';
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

function run(command, args, env = {}) {
  const outcome = spawnSync(command, args, { cwd: root, env: { ...process.env, ...env }, encoding: 'utf8' });
  if (outcome.status !== 0)
    throw new Error(`${command} ${args.join(' ')} failed:\n${outcome.stdout}${outcome.stderr}`);
}

async function importDist(file) {
  return import(path.join(root, 'apps/server/dist', file));
}

const results = {
  startedAt: new Date(startedAt).toISOString(),
  machine: { node: process.version, cpus: (await import('node:os')).cpus().length },
  settings: {
    seconds,
    connections,
    rounds,
    smallUsers,
    largeUsers,
    databasePoolSize: process.env.DATABASE_POOL_SIZE ?? 'default',
    databasePipelineSize: process.env.DATABASE_PIPELINE_SIZE ?? 'default',
  },
  api: [],
  startup: {},
  web: {},
};

log(`[${elapsed()}] building the production site and server`);
const webDir = path.join(work, 'web');
run('npm', ['run', 'build', '--workspace', 'packages/shared']);
run('npm', ['run', 'build', '--workspace', 'apps/server']);
run(
  process.execPath,
  [
    path.join(root, 'node_modules/vite/bin/vite.js'),
    'build',
    'apps/web',
    '--outDir',
    webDir,
    '--emptyOutDir',
    '--logLevel',
    'error',
  ],
  {
    NODE_ENV: 'production',
  },
);

const { openDatabase } = await importDist('db/database.js');
const { migrateToLatest } = await importDist('db/migrate.js');
const { applyDemoSeeds } = await importDist('db/seed.js');
const { demoSeeds } = await importDist('demo-seeds.js');
const { AccessTokens } = await importDist('lib/access-tokens.js');

/** The hello-world baseline runs in its own process, like the server, so both get a core. */
const baselinePort = await freePort();
const baseline = startNode(path.join(root, 'bench/lib/hello-world.mjs'), [], { PORT: String(baselinePort) });
await waitFor(`http://127.0.0.1:${baselinePort}/`, { child: baseline.child });

async function fillDatabase(open, from, to) {
  const handle = await open();
  try {
    await migrateToLatest(handle.db);
    await applyDemoSeeds(handle.db, demoSeeds);
    const started = Date.now();
    await generateUsers(handle.db, { from, to });
    const ids = await benchIds(handle.db, BENCH_USER);
    return { ids, generatedMs: Date.now() - started, counts: await countRows(handle.db) };
  } finally {
    await handle.close();
  }
}

async function measureApi(server, database, users, ids, databasePids) {
  const token = await new AccessTokens(JWT_SECRET, 3600).sign(ids.userId);
  const browser = { storeid: 'MNCO', 'accept-encoding': 'br, gzip', accept: 'application/json' };
  const authed = { ...browser, authorization: `Bearer ${token}` };
  const calls = [
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
  // The landing budget's floor: a bare node:http server sending the app's very bytes (headers
  // and body), measured beside hello-world so the app's own share shows (bench/lib/same-bytes.mjs).
  const floorPort = await freePort();
  const floor = startNode(path.join(root, 'bench/lib/same-bytes.mjs'), [], {
    PORT: String(floorPort),
    TARGET: `${server.baseUrl}/api/landing-page`,
    HEADERS: JSON.stringify(browser),
  });
  try {
    await waitFor(`http://127.0.0.1:${floorPort}/`, { child: floor.child });
    await measureRounds(server, database, users, calls, databasePids, {
      url: `http://127.0.0.1:${floorPort}/`,
      pid: floor.child.pid,
      headers: browser,
    });
  } finally {
    await stop(floor.child);
  }
}

async function measureRounds(server, database, users, calls, databasePids, floor) {
  // Rounds interleave the baseline and the calls, so a burst of other load on the machine
  // shows as spread between rounds rather than as a shifted median.
  for (let round = 1; round <= rounds; round++) {
    const hello = await measure(`http://127.0.0.1:${baselinePort}/`, {
      connections,
      seconds,
      pids: [baseline.child.pid],
    });
    results.api.push({ database, users, round, call: 'hello-world', status: 200, ...hello });
    log(
      `[${elapsed()}] ${database}, ${users} users, round ${round}/${rounds}: hello-world ${hello.requestsPerSecond} req/s, ${hello.cpuMicrosPerRequest} µs CPU/request`,
    );
    const floorFigures = await measure(floor.url, {
      connections,
      seconds,
      headers: floor.headers,
      pids: [floor.pid],
    });
    results.api.push({
      database,
      users,
      round,
      call: SAME_BYTES,
      status: 200,
      ...floorFigures,
      ratioToBaseline: Number((floorFigures.requestsPerSecond / hello.requestsPerSecond).toFixed(3)),
      cpuRatioToBaseline: Number((floorFigures.cpuMicrosPerRequest / hello.cpuMicrosPerRequest).toFixed(2)),
    });
    log(
      `[${elapsed()}]   ${SAME_BYTES.padEnd(46)} ${String(floorFigures.requestsPerSecond).padStart(6)} req/s  CPU ${floorFigures.cpuMicrosPerRequest} µs/req (${(floorFigures.cpuMicrosPerRequest / hello.cpuMicrosPerRequest).toFixed(2)}× hello-world)`,
    );
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
      const entry = {
        database,
        users,
        round,
        call: name,
        status: check.status,
        answer,
        ...figures,
        ratioToBaseline: Number((figures.requestsPerSecond / hello.requestsPerSecond).toFixed(3)),
        cpuRatioToBaseline: Number((figures.cpuMicrosPerRequest / hello.cpuMicrosPerRequest).toFixed(2)),
        baselineRequestsPerSecond: hello.requestsPerSecond,
        baselineCpuMicrosPerRequest: hello.cpuMicrosPerRequest,
      };
      results.api.push(entry);
      const database_ = figures.databaseCpuMicrosPerRequest;
      log(
        `[${elapsed()}]   ${name.padEnd(46)} ${String(figures.requestsPerSecond).padStart(6)} req/s  p50 ${figures.latencyMs.p50} ms  p99 ${figures.latencyMs.p99} ms  CPU ${figures.cpuMicrosPerRequest} µs/req (${entry.cpuRatioToBaseline}× hello-world${database_ === undefined ? '' : `; PostgreSQL ${database_} µs`})  (${Math.round(entry.ratioToBaseline * 100)} % of baseline req/s, status ${check.status}, ${answer.bytes} bytes sent as ${answer.wireBytes} ${answer.encoding}, non-2xx ${figures.non2xx})`,
      );
    }
  }
}

async function benchDatabase(database, { open, serverOptions, dropDatabase, databasePids }) {
  log(`[${elapsed()}] ${database}: migrating, seeding and generating ${smallUsers} users`);
  const small = await fillDatabase(open, 1, smallUsers);
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
  const large = await fillDatabase(open, smallUsers + 1, largeUsers);
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
      open: () => openDatabase({ kind: 'pglite', dataDir }),
      serverOptions: { dataDir },
    });
  }

  if (!skip.has('postgres')) {
    const adminUrl =
      process.env.BENCH_POSTGRES_URL ??
      process.env.DATABASE_URL ??
      'postgres://postgres@127.0.0.1:5432/postgres';
    const name = `tunes_bench_${process.pid}`;
    const admin = new pg.Client({ connectionString: adminUrl });
    const reachable = await admin.connect().then(
      () => true,
      (error) => {
        log(
          `[${elapsed()}] PostgreSQL not reachable at ${new URL(adminUrl).host} (${error.message}); skipped`,
        );
        return false;
      },
    );
    if (reachable) {
      await admin.query(`create database ${name}`);
      const url = new URL(adminUrl);
      url.pathname = `/${name}`;
      const databaseUrl = url.toString();
      try {
        await benchDatabase('postgres', {
          open: () => openDatabase({ kind: 'postgres', url: databaseUrl, poolSize: 2 }),
          serverOptions: { databaseUrl },
          // The server's pooled connections: their CPU is the database's share of each call.
          databasePids: async () =>
            (await admin.query('select pid from pg_stat_activity where datname = $1', [name])).rows.map(
              (row) => row.pid,
            ),
        });
      } finally {
        await admin.query(`drop database if exists ${name} with (force)`);
        await admin.end();
      }
    }
  }
} finally {
  await stop(baseline.child);
  rmSync(work, { recursive: true, force: true });
}

// The renewal budget: its own script (bench/renewals.mjs) in its own process, on PostgreSQL.
if (!skip.has('renewals')) {
  log(
    `[${elapsed()}] renewals: ${process.env.BENCH_RENEWALS ?? 100_000} due on one day, reminded then charged by the job queue`,
  );
  const renewals = spawnSync(process.execPath, [path.join(root, 'bench/renewals.mjs')], {
    cwd: root,
    env: process.env,
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  process.stdout.write(renewals.stdout ?? '');
  const file = path.join(root, 'bench/results/renewals-latest.json');
  if (renewals.status === 0 && existsSync(file)) {
    results.renewals = JSON.parse((await import('node:fs')).readFileSync(file, 'utf8'));
  } else {
    log(`renewals: the benchmark failed (exit ${renewals.status})`);
  }
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
