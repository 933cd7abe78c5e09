/**
 * The run's figures against the budgets of performance.md. Benchmarks never fail on a time: a
 * missed budget is printed as a gap for docs/performance.md, and the exit code stays 0.
 */
const KB = 1024;

function find(results, database, users, call) {
  return results.api.find(
    (entry) => entry.database === database && entry.users === users && entry.call === call,
  );
}

export function budgets(results) {
  const rows = [];
  const { smallUsers, largeUsers } = results.settings;
  for (const database of ['pglite', 'postgres']) {
    const landing = find(results, database, smallUsers, 'GET /api/landing-page');
    if (landing) {
      rows.push({
        budget: `landing-page throughput ≥ 60 % of hello-world (${database})`,
        measured: `${Math.round(landing.ratioToBaseline * 100)} % (${landing.requestsPerSecond} of ${landing.baselineRequestsPerSecond} req/s)`,
        met: landing.ratioToBaseline >= 0.6,
      });
    }
  }
  const profile = find(results, 'postgres', smallUsers, 'GET /api/users/{sub}/profile');
  if (profile) {
    rows.push({
      budget: `profile p99 ≤ 25 ms on PostgreSQL, ${profile.connections} connections`,
      measured: `${profile.latencyMs.p99} ms`,
      met: profile.latencyMs.p99 <= 25,
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
      const ratio = large.latencyMs.p99 / Math.max(small.latencyMs.p99, 1);
      rows.push({
        budget: `growth ${call} p99 at ${largeUsers} users ≤ 1.5× of ${smallUsers} (${database})`,
        measured: `${ratio.toFixed(2)}× (${small.latencyMs.p99} → ${large.latencyMs.p99} ms)`,
        met: ratio <= 1.5,
      });
    }
  }
  if (results.startup?.freshDataDirMs !== undefined) {
    rows.push({
      budget: 'start-up: / answered within 3 s (PGlite)',
      measured: `${results.startup.freshDataDirMs} ms fresh, ${results.startup.existingDataDirMs} ms existing DATA_DIR`,
      met: Math.max(results.startup.freshDataDirMs, results.startup.existingDataDirMs) <= 3000,
    });
  }
  const home = results.web?.routes?.find((entry) => entry.route === '/');
  if (home) {
    rows.push({
      budget: 'JS before first paint of / ≤ 120 KB compressed',
      measured: `${(home.jsBeforeFirstPaintGzipBytes / KB).toFixed(1)} KB gzip (all JS of /: ${(home.jsGzipBytes / KB).toFixed(1)} KB)`,
      met: home.jsBeforeFirstPaintGzipBytes <= 120 * KB,
    });
  }
  for (const entry of results.web?.lighthouse?.filter((run) => run.preset === 'mobile') ?? []) {
    const { performance, accessibility } = entry.scores;
    const practices = entry.scores['best-practices'];
    rows.push({
      budget: `Lighthouse mobile ${entry.path}: performance ≥ 95, accessibility 100, best practices ≥ 95`,
      measured: `${performance} / ${accessibility} / ${practices}`,
      met: performance >= 95 && accessibility === 100 && practices >= 95,
    });
  }
  return rows;
}

export function printSummary(results, log) {
  log('\nBudgets of performance.md');
  for (const row of budgets(results))
    log(`  ${row.met ? 'met   ' : 'MISSED'}  ${row.budget}: ${row.measured}`);
  if (results.web?.routes) {
    log('\nCompressed JS / CSS per route (gzip -9)');
    for (const entry of results.web.routes) {
      log(
        `  ${entry.route.padEnd(16)} JS ${(entry.jsGzipBytes / KB).toFixed(1).padStart(6)} KB (before first paint ${(entry.jsBeforeFirstPaintGzipBytes / KB).toFixed(1)} KB)  CSS ${(entry.cssGzipBytes / KB).toFixed(1).padStart(5)} KB`,
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
