// `node bench/launch-roundtrips.mjs`: the round trips to PostgreSQL of each launch-day step, one
// call at a time. The built server (as bench:launch runs it, on a PostgreSQL database of its own)
// counts the statements its `pg` clients send and its CPU (bench/lib/count-queries.cjs); BENCH_ROUNDTRIP_JOURNEYS
// (4) journeys, card and QPay in turn, and BENCH_ROUNDTRIP_LISTENER_CALLS (10) of each listener
// call are made one after another, and each step's statements are the counter's difference
// around it (no job runs: PAYMENT_CHECK_INTERVAL_SECONDS=0), the CPU likewise (it moves with the
// machine's load; take several journeys). BENCH_COUNT_FILE=<file> writes every statement there,
// under the step that sent it. BENCH_NO_BUILD=1 skips the build.
import { appendFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { JWT_SECRET, startAppServer } from './lib/app-server.mjs';
import { buildProduction } from './lib/build.mjs';
import { createPostgresDatabase, fillDatabase } from './lib/databases.mjs';
import { createClient } from './lib/http-client.mjs';
import { listenerCall, PLANS, signUpAndBuy } from './lib/launch-journeys.mjs';
import { signInListeners } from './lib/launch-listeners.mjs';
import { freePort } from './lib/processes.mjs';

const root = fileURLToPath(new URL('..', import.meta.url));
const journeys = Number(process.env.BENCH_ROUNDTRIP_JOURNEYS ?? 4);
const listenerCalls = Number(process.env.BENCH_ROUNDTRIP_LISTENER_CALLS ?? 10);
const log = (line) => process.stdout.write(`${line}\n`);

const webDir = process.env.BENCH_NO_BUILD === '1' ? path.join(root, 'apps/web/dist') : buildProduction(root);
const database = await createPostgresDatabase(`tunes_roundtrips_${process.pid}`);
let server;
try {
  const databaseOptions = { kind: 'postgres', url: database.url, poolSize: 4 };
  await fillDatabase(root, databaseOptions, { from: 1, to: 100, benchUser: 1 });
  const listeners = await signInListeners(root, databaseOptions, { jwtSecret: JWT_SECRET });
  const countPort = await freePort();
  const preload = `--require=${path.join(root, 'bench/lib/count-queries.cjs')}`;
  process.env.BENCH_SERVER_NODE_OPTIONS = [process.env.BENCH_SERVER_NODE_OPTIONS, preload]
    .filter(Boolean)
    .join(' ');
  server = await startAppServer(root, {
    databaseUrl: database.url,
    webDir,
    sandboxes: true,
    env: {
      TRUST_PROXY: '127.0.0.1',
      SMS_HOURLY_BUDGET: '1000000',
      BENCH_COUNT_PORT: String(countPort),
      ...(process.env.BENCH_COUNT_FILE ? { BENCH_COUNT_FILE: process.env.BENCH_COUNT_FILE } : {}),
    },
  });
  const counted = async () => (await fetch(`http://127.0.0.1:${countPort}/`)).json();
  const client = createClient(server.baseUrl);
  const steps = new Map();
  const call = async (step, method, target, { arrivedAt: _arrivedAt, ...options }, expect) => {
    if (process.env.BENCH_COUNT_FILE) appendFileSync(process.env.BENCH_COUNT_FILE, `--- ${step}\n`);
    const before = await counted();
    const answer = await client.request(method, target, options);
    const problem = expect(answer);
    if (problem) throw new Error(`${step} ${target}: ${problem}`);
    const after = await counted();
    const entry = steps.get(step) ?? { calls: 0, statements: 0, cpuUs: 0 };
    entry.calls++;
    entry.statements += after.statements - before.statements;
    // Less the counter's own answer, made between the two readings (~its share of one call).
    entry.cpuUs += after.cpuUs - before.cpuUs;
    steps.set(step, entry);
    return answer;
  };
  for (let index = 0; index < journeys; index++) {
    await signUpAndBuy(call, {
      msisdn: `976${String(88000000 + index)}`,
      address: `10.9.${Math.floor(index / 250)}.${(index % 250) + 1}`,
      method: index % 2 === 0 ? 'card' : 'qpay',
      plan: PLANS[Math.floor(index / 2) % PLANS.length],
    });
  }
  for (let index = 0; index < listenerCalls; index++) {
    const listener = listeners[index % listeners.length];
    await listenerCall(call, listener, 'refresh');
    await listenerCall(call, listener, 'profile');
  }
  client.close();
  const journey = { statements: 0, cpuUs: 0 };
  log(
    'round trips to PostgreSQL (statements the server sent) and server CPU (µs) a call, one call at a time:',
  );
  for (const [step, { calls, statements, cpuUs }] of steps) {
    if (!step.startsWith('listener')) {
      journey.statements += statements / journeys;
      journey.cpuUs += cpuUs / journeys;
    }
    log(
      `${(statements / calls).toFixed(1).padStart(6)} ${String(Math.round(cpuUs / calls)).padStart(7)} µs  ${step} (${calls} calls)`,
    );
  }
  log(
    `${journey.statements.toFixed(1).padStart(6)} ${String(Math.round(journey.cpuUs)).padStart(7)} µs  a whole journey (the mean of card and QPay)`,
  );
} finally {
  await server?.stop();
  await database.drop();
}
