// `BENCH_AB=<git ref> npm run bench`: an A/B of two builds — is a mechanism worth keeping? One call
// is measured on build A (this checkout's working tree as it is, or BENCH_AB_A=<git ref>) and on
// build B (BENCH_AB), over BENCH_AB_STARTS (4) process starts of each build, alternated A B A B …,
// so a process state (where V8 placed things, what the JIT chose) or a burst of other load on the
// machine shows as spread within a build instead of passing for a difference between builds.
// A ref is checked out with `git worktree add --detach` in a temporary folder (branches, index
// and work tree untouched; removed at the end) and built with `npm run build`; its dependencies
// are this checkout's, linked, when both lockfiles are the same, else `npm ci` in the worktree
// (BENCH_AB_INSTALL=link|ci forces one). Each build migrates, seeds and fills a database of its
// own with its own code (1,000 generated users), and its server runs with its own V8 flags.
// Options: BENCH_AB_CALL (profile | invitations | plans | landing | contents | page),
//   BENCH_AB_DATABASE (postgres | pglite), BENCH_CONNECTIONS (50), BENCH_SECONDS (5) after a 1 s
//   warm-up, BENCH_POSTGRES_URL as for `npm run bench`.
// Prints, per build, the median and the spread (min–max) over its starts of p99, p50, req/s and
// server CPU per request, and B against A; writes bench/results/ab-<time>.json (not kept in git).
// The rule it serves (docs/performance.md): a mechanism off the framework's standard path stays
// only if removing it misses a DESIGN §6 budget, shown by such a run.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { cpus, tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { JWT_SECRET, startAppServer } from './lib/app-server.mjs';
import { buildProduction } from './lib/build.mjs';
import { createPostgresDatabase, distOf, fillDatabase } from './lib/databases.mjs';
import { measure } from './lib/load.mjs';
import { addWorktree, removeWorktree, resolveRef } from './lib/worktree.mjs';

const root = fileURLToPath(new URL('..', import.meta.url));
const settings = {
  b: process.env.BENCH_AB,
  a: process.env.BENCH_AB_A ?? null,
  starts: Number(process.env.BENCH_AB_STARTS ?? 4),
  call: process.env.BENCH_AB_CALL ?? 'profile',
  database: process.env.BENCH_AB_DATABASE ?? 'postgres',
  connections: Number(process.env.BENCH_CONNECTIONS ?? 50),
  seconds: Number(process.env.BENCH_SECONDS ?? 5),
  install: process.env.BENCH_AB_INSTALL ?? 'auto',
};
/** A Family owner with two members and a live invitation code (bench/lib/generate-users.mjs). */
const BENCH_USER = 999;
const USERS = 1_000;
const API = { storeid: 'MNCO', 'accept-encoding': 'br, gzip', accept: 'application/json' };
const CALLS = {
  profile: {
    name: 'GET /api/users/{sub}/profile',
    path: (ids) => `/api/users/${ids.userId}/profile`,
    auth: true,
  },
  invitations: {
    name: 'GET /api/subscription/{id}/invitation-codes/',
    path: (ids) => `/api/subscription/${ids.subscriptionId}/invitation-codes/`,
    auth: true,
  },
  plans: { name: 'GET /api/packages/allplans', path: () => '/api/packages/allplans?merchantId=14' },
  landing: { name: 'GET /api/landing-page', path: () => '/api/landing-page' },
  contents: {
    name: 'GET /api/landing-page/contents/list/ALL',
    path: () => '/api/landing-page/contents/list/ALL',
  },
  page: {
    name: 'GET / (the landing page)',
    path: () => '/',
    headers: { accept: 'text/html', 'accept-encoding': 'br, gzip' },
  },
};
const call = CALLS[settings.call];
if (!call) throw new Error(`BENCH_AB_CALL must be one of ${Object.keys(CALLS).join(', ')}`);
if (!['postgres', 'pglite'].includes(settings.database))
  throw new Error('BENCH_AB_DATABASE must be postgres or pglite');

const log = (line) => process.stdout.write(`${line}\n`);
const startedAt = Date.now();
const elapsed = () => `${Math.round((Date.now() - startedAt) / 1000)}s`;
const work = mkdtempSync(path.join(tmpdir(), 'tunes-ab-'));
const median = (values) => {
  const sorted = [...values].sort((x, y) => x - y);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
};
const spread = (values) => ({
  median: Math.round(median(values) * 10) / 10,
  min: Math.min(...values),
  max: Math.max(...values),
});
const shown = (figure, unit = '') => `${figure.median}${unit} (${figure.min}–${figure.max})`;

const builds = [
  { label: 'A', ref: settings.a, runs: [] },
  { label: 'B', ref: settings.b, runs: [] },
];
const cleanups = [];
try {
  for (const build of builds) {
    if (build.ref) {
      build.commit = resolveRef(root, build.ref);
      build.root = path.join(work, `tree-${build.label}`);
      log(
        `[${elapsed()}] ${build.label}: ${build.ref} (${build.commit.slice(0, 12)}) checked out in ${build.root}`,
      );
      build.install = addWorktree(root, build.commit, build.root, settings.install);
      cleanups.push(() => removeWorktree(root, build.root));
      log(`[${elapsed()}] ${build.label}: dependencies ${build.install}`);
    } else {
      build.root = root;
      build.ref = 'the working tree';
    }
    log(`[${elapsed()}] ${build.label}: npm run build`);
    build.webDir = buildProduction(build.root);

    let databaseOptions;
    if (settings.database === 'postgres') {
      const database = await createPostgresDatabase(`tunes_ab_${process.pid}_${build.label.toLowerCase()}`);
      cleanups.push(() => database.drop());
      build.serverOptions = { databaseUrl: database.url };
      build.databasePids = database.pids;
      databaseOptions = { kind: 'postgres', url: database.url, poolSize: 2 };
    } else {
      const dataDir = path.join(work, `pglite-${build.label}`);
      build.serverOptions = { dataDir };
      databaseOptions = { kind: 'pglite', dataDir };
    }
    const filled = await fillDatabase(build.root, databaseOptions, {
      from: 1,
      to: USERS,
      benchUser: BENCH_USER,
    });
    const { AccessTokens } = await distOf(build.root)('lib/access-tokens.js');
    const token = await new AccessTokens(JWT_SECRET, 3600).sign(filled.ids.userId);
    build.url = call.path(filled.ids);
    build.headers = call.headers ?? { ...API, ...(call.auth ? { authorization: `Bearer ${token}` } : {}) };
  }

  for (let start = 1; start <= settings.starts; start++) {
    for (const build of builds) {
      const server = await startAppServer(build.root, { ...build.serverOptions, webDir: build.webDir });
      try {
        const check = await fetch(`${server.baseUrl}${build.url}`, { headers: build.headers });
        await check.arrayBuffer();
        if (check.status !== 200) throw new Error(`${build.label}: ${call.name} answered ${check.status}`);
        const figures = await measure(`${server.baseUrl}${build.url}`, {
          connections: settings.connections,
          seconds: settings.seconds,
          headers: build.headers,
          pids: [server.pid],
          extraPids: build.databasePids,
        });
        build.runs.push(figures);
        log(
          `[${elapsed()}] start ${start}/${settings.starts} ${build.label}: ${figures.requestsPerSecond} req/s  p50 ${figures.latencyMs.p50} ms  p99 ${figures.latencyMs.p99} ms  CPU ${figures.cpuMicrosPerRequest} µs/req${figures.databaseCpuMicrosPerRequest === undefined ? '' : ` (PostgreSQL ${figures.databaseCpuMicrosPerRequest} µs)`}  non-2xx ${figures.non2xx}, errors ${figures.errors}`,
        );
      } finally {
        await server.stop();
      }
    }
  }
} finally {
  for (const cleanup of cleanups.reverse()) await cleanup();
  rmSync(work, { recursive: true, force: true });
}

const summaries = builds.map((build) => ({
  label: build.label,
  ref: build.ref,
  commit: build.commit ?? null,
  install: build.install ?? null,
  starts: build.runs.length,
  p99Ms: spread(build.runs.map((run) => run.latencyMs.p99)),
  p50Ms: spread(build.runs.map((run) => run.latencyMs.p50)),
  requestsPerSecond: spread(build.runs.map((run) => run.requestsPerSecond)),
  cpuMicrosPerRequest: spread(build.runs.map((run) => run.cpuMicrosPerRequest)),
  databaseCpuMicrosPerRequest:
    settings.database === 'postgres'
      ? spread(build.runs.map((run) => run.databaseCpuMicrosPerRequest))
      : null,
  errors: build.runs.reduce((total, run) => total + run.errors + run.non2xx, 0),
  runs: build.runs,
}));
log(
  `\nA/B of ${call.name} on ${settings.database}, ${settings.connections} connections, ${settings.seconds} s a start: median (min–max) over the starts`,
);
for (const entry of summaries) {
  log(
    `  ${entry.label} ${entry.ref}${entry.commit ? ` (${entry.commit.slice(0, 12)})` : ''}: p99 ${shown(entry.p99Ms, ' ms')}  p50 ${shown(entry.p50Ms, ' ms')}  ${shown(entry.requestsPerSecond)} req/s  CPU ${shown(entry.cpuMicrosPerRequest, ' µs')}/req${entry.databaseCpuMicrosPerRequest ? ` (PostgreSQL ${shown(entry.databaseCpuMicrosPerRequest, ' µs')})` : ''}${entry.errors ? `  ${entry.errors} errors` : ''}`,
  );
}
const [a, b] = summaries;
const change = (key) => `${(((b[key].median - a[key].median) / a[key].median) * 100).toFixed(1)} %`;
const apart = (key) => b[key].min > a[key].max || b[key].max < a[key].min;
log(
  `  B against A: p99 ${change('p99Ms')}${apart('p99Ms') ? '' : ' (spreads overlap)'}, req/s ${change('requestsPerSecond')}, CPU ${change('cpuMicrosPerRequest')}${apart('cpuMicrosPerRequest') ? '' : ' (spreads overlap)'}`,
);
const stamp = new Date(startedAt).toISOString().replace(/[:.]/g, '-');
mkdirSync(path.join(root, 'bench/results'), { recursive: true });
writeFileSync(
  path.join(root, 'bench/results', `ab-${stamp}.json`),
  `${JSON.stringify({ startedAt: new Date(startedAt).toISOString(), machine: { node: process.version, cpus: cpus().length }, settings, builds: summaries }, null, 2)}\n`,
);
log(`\nWritten to bench/results/ab-${stamp}.json (${Math.round((Date.now() - startedAt) / 1000)} s).`);
