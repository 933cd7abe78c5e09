import { launchBudgets } from './launch-summary.mjs';

/**
 * The run's figures against the budgets of DESIGN §6. Benchmarks never fail on a time: a missed
 * budget is printed as a gap for docs/performance.md, and the exit code stays 0.
 */
const KB = 1024;

const median = (values) => {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
};

/** A figure over the rounds: its median and its spread (min–max). */
function spread(values) {
  const present = values.filter((value) => typeof value === 'number' && Number.isFinite(value));
  if (present.length === 0) return null;
  return { median: median(present), min: Math.min(...present), max: Math.max(...present) };
}

const FIGURES = {
  requestsPerSecond: (entry) => entry.requestsPerSecond,
  p50Ms: (entry) => entry.latencyMs.p50,
  p99Ms: (entry) => entry.latencyMs.p99,
  cpuMicrosPerRequest: (entry) => entry.cpuMicrosPerRequest,
  databaseCpuMicrosPerRequest: (entry) => entry.databaseCpuMicrosPerRequest,
};

/** Each call's figures over its rounds (median, min, max), by database, users and call. */
export function aggregate(api) {
  const groups = new Map();
  for (const entry of api) {
    const key = `${entry.database}|${entry.users}|${entry.call}`;
    if (!groups.has(key)) groups.set(key, []);
    groups.get(key).push(entry);
  }
  return [...groups.values()].map((entries) => {
    const { database, users, call } = entries[0];
    const figures = {};
    for (const [name, read] of Object.entries(FIGURES)) {
      const value = spread(entries.map(read));
      if (value) figures[name] = value;
    }
    return { database, users, call, rounds: entries.length, ...figures };
  });
}

function find(results, database, users, call) {
  return (results.apiSummary ?? aggregate(results.api)).find(
    (entry) => entry.database === database && entry.users === users && entry.call === call,
  );
}

const range = (figure, digits = 0, unit = '') =>
  `${figure.median.toFixed(digits)}${unit} (${figure.min.toFixed(digits)}–${figure.max.toFixed(digits)})`;

/** The spread of the early JS over a route's page loads, when it was loaded more than once. */
const spreadOfLoads = (entry) =>
  entry.jsBeforeFirstPaintGzipBytesRange && entry.loads > 1
    ? `, median of ${entry.loads} loads (${entry.jsBeforeFirstPaintGzipBytesRange.map((bytes) => (bytes / KB).toFixed(1)).join('–')})`
    : '';

export function budgets(results) {
  const rows = [];
  const { smallUsers, largeUsers } = results.settings;
  const KB_BUDGET = 120 * KB;
  const profileBudgets = [
    ['postgres', 25, 'in every round', (profile) => profile.p99Ms.max <= 25],
    ['pglite', 100, 'median', (profile) => profile.p99Ms.median <= 100],
  ];
  for (const [database, limit, how, met] of profileBudgets) {
    const profile = find(results, database, smallUsers, 'GET /api/users/{sub}/profile');
    if (!profile) continue;
    rows.push({
      budget: `profile p99 ≤ ${limit} ms on ${database}, ${results.settings.connections} connections, ${how}`,
      measured: `${range(profile.p99Ms, 0, ' ms')} (p50 ${range(profile.p50Ms, 0, ' ms')}, ${range(profile.cpuMicrosPerRequest, 0, ' µs')} server CPU)`,
      met: met(profile),
    });
  }
  for (const database of ['pglite', 'postgres']) {
    for (const call of [
      'GET /api/users/{sub}/profile',
      'GET /api/packages/allplans',
      'GET /api/subscription/{id}/invitation-codes/',
    ]) {
      const small = find(results, database, smallUsers, call);
      const large = find(results, database, largeUsers, call);
      if (!small || !large) continue;
      const ratio = large.p99Ms.median / Math.max(small.p99Ms.median, 1);
      rows.push({
        budget: `growth ${call} p99 at ${largeUsers} users ≤ 1.5× of ${smallUsers} (${database}, medians)`,
        measured: `${ratio.toFixed(2)}× (${range(small.p99Ms, 0, ' ms')} → ${range(large.p99Ms, 0, ' ms')})`,
        met: ratio <= 1.5,
      });
    }
  }
  for (const entry of results.web?.routes ?? []) {
    // Judged on the bytes the server sends (its brotli files, to every browser that accepts br);
    // gzip -9, what a browser without br would get, is printed beside it.
    const sent = entry.jsBeforeFirstPaintBrotliBytes ?? entry.jsBeforeFirstPaintGzipBytes;
    rows.push({
      budget: `JS before first paint of ${entry.route} ≤ 120 KB compressed`,
      measured: `${(sent / KB).toFixed(1)} KB brotli, ${(entry.jsBeforeFirstPaintGzipBytes / KB).toFixed(1)} KB gzip${spreadOfLoads(entry)} (all JS: ${(entry.jsGzipBytes / KB).toFixed(1)} KB gzip)`,
      met: sent <= KB_BUDGET,
    });
  }
  if (results.startup?.freshDataDirMs !== undefined) {
    rows.push({
      budget: 'start-up: / answered within 3 s (PGlite)',
      measured: `${results.startup.freshDataDirMs} ms fresh, ${results.startup.existingDataDirMs} ms existing DATA_DIR`,
      met: Math.max(results.startup.freshDataDirMs, results.startup.existingDataDirMs) <= 3000,
    });
  }
  if (results.renewals?.totalSeconds !== undefined) {
    rows.push({
      budget: `renewals: ${results.renewals.count} due on one day within 600 s, each once`,
      measured: `${results.renewals.totalSeconds} s`,
      met: results.renewals.budget?.met === true,
    });
  }
  if (results.launch?.steps) {
    for (const row of launchBudgets(results.launch))
      rows.push({ ...row, budget: `launch day: ${row.budget}` });
  }
  for (const entry of results.web?.lighthouse?.filter((run) => run.preset === 'mobile') ?? []) {
    const { performance, accessibility } = entry.scores;
    const practices = entry.scores['best-practices'];
    rows.push({
      budget: `Lighthouse mobile ${entry.path}: performance ≥ 95, accessibility 100, best practices 100`,
      measured: `${performance} / ${accessibility} / ${practices}`,
      met: performance >= 95 && accessibility === 100 && practices === 100,
    });
  }
  return rows;
}

export function printSummary(results, log) {
  log('\nAPI, median (min–max) of the rounds: req/s, p50 / p99 ms, server CPU µs per request');
  for (const entry of results.apiSummary ?? aggregate(results.api)) {
    const database = entry.databaseCpuMicrosPerRequest
      ? `  PostgreSQL ${range(entry.databaseCpuMicrosPerRequest)} µs`
      : '';
    log(
      `  ${`${entry.database} ${entry.users}`.padEnd(16)} ${entry.call.padEnd(46)} ${range(entry.requestsPerSecond).padEnd(22)} p50 ${range(entry.p50Ms).padEnd(12)} p99 ${range(entry.p99Ms).padEnd(14)} CPU ${range(entry.cpuMicrosPerRequest, 1, ' µs')}${database}`,
    );
  }
  log('\nBudgets of DESIGN §6');
  for (const row of budgets(results))
    log(`  ${row.met ? 'met   ' : 'MISSED'}  ${row.budget}: ${row.measured}`);
  if (results.web?.routes) {
    log('\nCompressed JS / CSS per route (gzip -9; before first paint also brotli, as sent)');
    for (const entry of results.web.routes) {
      const brotli = entry.jsBeforeFirstPaintBrotliBytes;
      log(
        `  ${entry.route.padEnd(28)} JS ${(entry.jsGzipBytes / KB).toFixed(1).padStart(6)} KB (before first paint ${(entry.jsBeforeFirstPaintGzipBytes / KB).toFixed(1)} KB${brotli === undefined ? '' : `, brotli ${(brotli / KB).toFixed(1)} KB`}${spreadOfLoads(entry)})  CSS ${(entry.cssGzipBytes / KB).toFixed(1).padStart(5)} KB`,
      );
    }
  }
  if (results.web?.lighthouse) {
    log('\nLighthouse (performance / accessibility / best practices / SEO, LCP, TBT, CLS)');
    for (const entry of results.web.lighthouse) {
      const s = entry.scores;
      log(
        `  ${entry.path.padEnd(9)} ${entry.preset.padEnd(8)} ${s.performance} / ${s.accessibility} / ${s['best-practices']} / ${s.seo}   LCP ${entry.lcpMs} ms  TBT ${entry.tbtMs} ms  CLS ${entry.cls}${entry.failingAudits.length ? `  failing: ${entry.failingAudits.join(', ')}` : ''}`,
      );
    }
  }
}
