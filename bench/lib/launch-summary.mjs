import { TOOL_STEPS } from './launch-journeys.mjs';

/** DESIGN §6 launch day. */
const JOURNEYS_PER_SECOND = 50;
const STEP_P99_MS = 250;

/** The launch-day budget's four parts, each with what was measured and whether it was met. */
export function launchBudgets(launch) {
  const steps = launch.steps.filter((entry) => !TOOL_STEPS.has(entry.step));
  const slowest = steps.reduce((worst, entry) => (entry.p99 > (worst?.p99 ?? -1) ? entry : worst), null);
  const over = steps.filter((entry) => entry.p99 > STEP_P99_MS);
  const errors =
    launch.steps.reduce((total, entry) => total + entry.errors, 0) +
    launch.journeys.unfinished +
    launch.listeners.withoutIdleListener;
  const { mismatches = [], unchecked = [] } = launch.books ?? {};
  return [
    {
      budget: `≥ ${JOURNEYS_PER_SECOND} completed sign-up-and-buy journeys a second`,
      measured: `${launch.journeys.completedPerSecond}/s (${launch.journeys.completed} of ${launch.journeys.started} arriving in ${launch.settings.seconds} s, done within ${launch.journeys.completedWithinSeconds ?? launch.settings.seconds} s; ${launch.journeys.offeredPerSecond}/s offered)`,
      met: launch.journeys.completedPerSecond >= JOURNEYS_PER_SECOND,
    },
    {
      budget: `every step's p99 ≤ ${STEP_P99_MS} ms`,
      measured: over.length
        ? `${over.length} over: ${over.map((entry) => `${entry.step} ${entry.p99} ms`).join(', ')}`
        : `slowest ${slowest?.step} ${slowest?.p99} ms`,
      met: over.length === 0 && steps.length > 0,
    },
    {
      budget: '0 errors',
      measured: `${errors} (failed journeys ${launch.journeys.failed}, unfinished ${launch.journeys.unfinished}, failed listener calls ${launch.listeners.failed})`,
      met: errors === 0 && launch.journeys.failed === 0,
    },
    {
      budget: 'the books check clean afterwards',
      measured: `${mismatches.length} mismatches, ${unchecked.length} unchecked, ${launch.books?.invoicesAsked ?? '?'} invoices asked of the providers`,
      met: launch.books?.status === 200 && mismatches.length === 0 && unchecked.length === 0,
    },
  ];
}

export function printLaunch(launch, log) {
  if (!launch.steps) {
    log('\nLaunch day: no figures (the run failed).');
    return;
  }
  log('\nLaunch day, each step: count, errors, p50 / p90 / p99 / max ms (tools in brackets: no budget)');
  for (const entry of launch.steps) {
    const name = TOOL_STEPS.has(entry.step) ? `[${entry.step}]` : entry.step;
    log(
      `  ${name.padEnd(58)} ${String(entry.count).padStart(7)} ${String(entry.errors).padStart(4)}   ${entry.p50} / ${entry.p90} / ${entry.p99} / ${entry.max}`,
    );
    for (const failure of entry.failures ?? []) log(`      ${failure}`);
  }
  const { journeys, listeners, cpuCores, generatorLagMs } = launch;
  log(
    `  journeys: ${journeys.completed} completed, ${journeys.failed} failed, ${journeys.unfinished} unfinished of ${journeys.started} (${JSON.stringify(journeys.byMethod)})${journeys.cutShort ? `; ${journeys.cutShort} journeys or calls still under way when the generator stopped` : ''}`,
  );
  for (const failure of journeys.failures) log(`      ${failure}`);
  log(
    `  listeners: ${listeners.refreshes} refreshes, ${listeners.reads} profile reads, ${listeners.failed} failed${listeners.withoutIdleListener ? `, ${listeners.withoutIdleListener} refreshes found no idle listener` : ''}`,
  );
  if (cpuCores)
    log(
      `  CPU (cores): server ${cpuCores.server}, PostgreSQL ${cpuCores.postgres}, load generator ${cpuCores.loadGenerator}; generator lag p99 ${generatorLagMs.p99} ms`,
    );
  if (launch.books) {
    log(
      `  books: ${launch.books.mismatches.length} mismatches, ${launch.books.unchecked.length} unchecked (${launch.books.invoicesAsked} invoices asked)`,
    );
    for (const mismatch of launch.books.mismatches.slice(0, 10)) log(`      ${JSON.stringify(mismatch)}`);
  }
  log('\nLaunch-day budget (DESIGN §6)');
  for (const row of launch.budget ?? launchBudgets(launch))
    log(`  ${row.met ? 'met   ' : 'MISSED'}  ${row.budget}: ${row.measured}`);
}
