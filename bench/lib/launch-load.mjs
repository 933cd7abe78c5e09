// The launch-day load generator, in a process of its own (started by bench/launch-day.mjs) so it
// never shares an event loop with the server or the bench. An open model: journeys and listener
// calls arrive at fixed rates whatever the server's answers do, each arrival on its own (a slow
// server meets more work at once, as on a launch day, rather than fewer requests).
// Input: the path of a JSON settings file; output: the figures as JSON on stdout, progress on stderr.
import { readFileSync } from 'node:fs';
import { performance } from 'node:perf_hooks';
import { createClient } from './http-client.mjs';
import { listenerCall, PLANS, signUpAndBuy } from './launch-journeys.mjs';

const settings = JSON.parse(readFileSync(process.argv[2], 'utf8'));
const {
  baseUrls,
  warmupSeconds,
  seconds,
  journeysPerSecond,
  listenerRequestsPerSecond,
  refreshEvery,
  drainSeconds,
} = settings;
const listeners = JSON.parse(readFileSync(settings.listenersFile, 'utf8'));
// One keep-alive client per server process, each request to the next in turn (a balancer's part).
const clients = baseUrls.map((baseUrl) => createClient(baseUrl));
let nextClient = 0;
const client = {
  request: (...args) => clients[nextClient++ % clients.length].request(...args),
  close: () => {
    for (const each of clients) each.close();
  },
};
const progress = (line) => process.stderr.write(`  launch load: ${line}\n`);

const steps = new Map();
const lags = [];
const journeys = { started: 0, completed: 0, failed: 0, byMethod: {}, failures: [] };
const listenerFigures = { refreshes: 0, reads: 0, failed: 0, withoutIdleListener: 0, failures: [] };
let measuredInFlight = 0;
/** When (ms after start) the last measured journey ended: the rate is taken up to then. */
let lastMeasuredEnd = 0;
/** Journeys and listener calls under way, measured or not. */
let inFlight = 0;
const underWay = (promise) => {
  inFlight++;
  return promise.finally(() => {
    inFlight--;
  });
};

function record(step, ms, problem) {
  if (!steps.has(step)) steps.set(step, { latencies: [], errors: 0, failures: [] });
  const entry = steps.get(step);
  entry.latencies.push(ms);
  if (problem) {
    entry.errors++;
    if (entry.failures.length < 5) entry.failures.push(problem);
  }
}

/**
 * The timed request of a journey or a listener: from the arrival time when it is the first call of
 * an arrival (so a generator that falls behind shows in the figures), else from its sending.
 */
function callFor(measured) {
  return async (step, method, path, { arrivedAt, ...options }, expect) => {
    const startedAt = arrivedAt ?? performance.now();
    let answer;
    try {
      answer = await client.request(method, path, options);
    } catch (error) {
      if (measured) record(step, performance.now() - startedAt, `no answer: ${error.message}`);
      throw new Error(`${step}: no answer: ${error.message}`);
    }
    const ms = performance.now() - startedAt;
    let problem;
    try {
      problem = expect(answer);
    } catch (error) {
      problem = error.message;
    }
    if (measured) record(step, ms, problem && `${path}: ${problem}`);
    if (problem) throw new Error(`${step} ${path}: ${problem}`);
    return answer;
  };
}

function startJourney(index, arrivedAt, measured) {
  const method = index % 2 === 0 ? 'card' : 'qpay';
  const plan = PLANS[Math.floor(index / 2) % PLANS.length];
  const msisdn = `97699${String(index).padStart(6, '0')}`;
  const address = `10.${(index >> 16) & 255}.${(index >> 8) & 255}.${index & 255}`;
  if (measured) {
    journeys.started++;
    measuredInFlight++;
    journeys.byMethod[method] ??= { started: 0, completed: 0, failed: 0 };
    journeys.byMethod[method].started++;
  }
  underWay(signUpAndBuy(callFor(measured), { msisdn, address, method, plan, arrivedAt })).then(
    () => {
      if (!measured) return;
      measuredInFlight--;
      lastMeasuredEnd = performance.now() - startedAt;
      journeys.completed++;
      journeys.byMethod[method].completed++;
    },
    (error) => {
      if (!measured) return;
      measuredInFlight--;
      journeys.failed++;
      journeys.byMethod[method].failed++;
      if (journeys.failures.length < 10) journeys.failures.push(error.message.slice(0, 300));
    },
  );
}

// Refreshes take a listener that is not refreshing already (a refresh token is spent once, and a
// spent one presented again revokes the sign-in); reads take any listener in turn.
const idle = [...listeners];
let nextReader = 0;
function startListenerCall(index, arrivedAt, measured) {
  const refresh = index % refreshEvery === 0;
  const listener = refresh ? idle.shift() : listeners[nextReader++ % listeners.length];
  if (!listener) {
    if (measured) listenerFigures.withoutIdleListener++;
    return;
  }
  if (measured) listenerFigures[refresh ? 'refreshes' : 'reads']++;
  underWay(listenerCall(callFor(measured), listener, refresh ? 'refresh' : 'profile', arrivedAt)).then(
    () => {
      if (refresh) idle.push(listener);
    },
    (error) => {
      // A listener whose refresh failed holds a token of unknown state: it is not used again.
      if (!measured) return;
      listenerFigures.failed++;
      if (listenerFigures.failures.length < 10) listenerFigures.failures.push(error.message.slice(0, 300));
    },
  );
}

const startedAt = performance.now();
const windowStart = warmupSeconds * 1000;
const windowEnd = windowStart + seconds * 1000;
const launched = { journeys: 0, listenerCalls: 0 };

/** Starts every arrival whose time has come, at its own time on the fixed schedule. */
function launchDue(now, { kind, rate, start }) {
  if (rate <= 0) return;
  const due = Math.floor(((now - startedAt) * rate) / 1000);
  while (launched[kind] < due) {
    const index = launched[kind]++;
    const arrivedAt = startedAt + (index * 1000) / rate;
    const offset = arrivedAt - startedAt;
    const measured = offset >= windowStart && offset < windowEnd;
    if (measured) lags.push(now - arrivedAt);
    start(index, arrivedAt, measured);
  }
}

const arrivals = [
  { kind: 'journeys', rate: journeysPerSecond, start: startJourney },
  { kind: 'listenerCalls', rate: listenerRequestsPerSecond, start: startListenerCall },
];

let lastReport = 0;
await new Promise((resolve) => {
  const tick = () => {
    const now = performance.now();
    for (const arrival of arrivals) launchDue(now, arrival);
    const elapsed = now - startedAt;
    if (elapsed - lastReport >= 5000) {
      lastReport = elapsed;
      progress(
        `${Math.round(elapsed / 1000)} s: journeys ${journeys.completed} completed, ${journeys.failed} failed, ${measuredInFlight} under way (measured); listener calls ${listenerFigures.refreshes + listenerFigures.reads}, failed ${listenerFigures.failed}`,
      );
    }
    // The load goes on past the window until its journeys are done, so they end under the same load.
    const drained = elapsed >= windowEnd && measuredInFlight === 0;
    if (drained || elapsed >= windowEnd + drainSeconds * 1000) return resolve();
    setTimeout(tick, 1);
  };
  tick();
});
const stoppedAt = performance.now();
// No journey is cut short: what is under way finishes before the generator ends, so the books
// are checked afterwards on payments that are whole (and late answers still count where measured).
while (inFlight > 0 && performance.now() - stoppedAt < drainSeconds * 1000) {
  await new Promise((resolve) => setTimeout(resolve, 50));
}
client.close();

const percentile = (sorted, share) =>
  sorted.length === 0 ? null : sorted[Math.min(sorted.length - 1, Math.ceil(share * sorted.length) - 1)];
const round = (value) => (value === null ? null : Math.round(value * 10) / 10);
function summary(values) {
  const sorted = Float64Array.from(values).sort();
  return {
    p50: round(percentile(sorted, 0.5)),
    p90: round(percentile(sorted, 0.9)),
    p99: round(percentile(sorted, 0.99)),
    max: round(sorted.length ? sorted[sorted.length - 1] : null),
  };
}

process.stdout.write(
  JSON.stringify({
    journeys: {
      ...journeys,
      offeredPerSecond: journeysPerSecond,
      // Completions over the time they took: the window, or longer when journeys ended after it
      // (a server that falls behind finishes the window's arrivals late, at a lower rate).
      completedPerSecond:
        Math.round(
          (journeys.completed / (Math.max(seconds * 1000, lastMeasuredEnd - windowStart) / 1000)) * 10,
        ) / 10,
      completedWithinSeconds: Math.round(Math.max(seconds * 1000, lastMeasuredEnd - windowStart) / 100) / 10,
      unfinished: measuredInFlight,
      cutShort: inFlight,
    },
    listeners: listenerFigures,
    steps: [...steps].map(([step, entry]) => ({
      step,
      count: entry.latencies.length,
      errors: entry.errors,
      ...summary(entry.latencies),
      failures: entry.failures,
    })),
    generatorLagMs: summary(lags),
    loadSeconds: Math.round((stoppedAt - startedAt) / 100) / 10,
    cpuMs: Math.round((process.cpuUsage().user + process.cpuUsage().system) / 1000),
  }),
  // Requests a saturated server never answered would keep this process alive: the figures are
  // written, so it ends.
  () => process.exit(0),
);
