#!/usr/bin/env node
// `npm test`: every layer, in order, failing on any failed or missing one.
//   static      typecheck + lint (Biome)
//   unit        Vitest, pure functions of every package
//   integration the API against PGlite, and against PostgreSQL when DATABASE_URL is set
//   e2e         Playwright in the system Chromium against the built site
//   cluster     the built server as 3 processes behind HAProxy on PostgreSQL and Redis (scale-out),
//               when DATABASE_URL and REDIS_URL are set (as root it installs Debian's haproxy)
// Set TEST_LAYERS=unit,integration to run some layers only (the summary still names skipped ones).
// On a fresh clone it first installs the dependencies (npm ci) and, as root, Debian's Chromium.
import { spawnSync } from 'node:child_process';
import { existsSync, statSync } from 'node:fs';

const requested = process.env.TEST_LAYERS?.split(',').map((layer) => layer.trim());
const wants = (layer) => !requested || requested.includes(layer);

function findChromium() {
  return [
    process.env.CHROME_PATH,
    '/usr/bin/chromium',
    '/usr/bin/chromium-browser',
    '/usr/bin/google-chrome',
  ].find((candidate) => candidate && existsSync(candidate));
}

const results = [];
function run(layer, command, args, env = {}) {
  const started = Date.now();
  process.stdout.write(`\n▶ ${layer}: ${command} ${args.join(' ')}\n`);
  const outcome = spawnSync(command, args, { stdio: 'inherit', env: { ...process.env, ...env } });
  const ok = outcome.status === 0;
  results.push({ layer, ok, seconds: Math.round((Date.now() - started) / 1000) });
  return ok;
}

/** node_modules is missing, or older than the lock file npm last installed from. */
function dependenciesStale() {
  const installed = 'node_modules/.package-lock.json';
  return !existsSync(installed) || statSync(installed).mtimeMs < statSync('package-lock.json').mtimeMs;
}

if (dependenciesStale()) {
  process.stdout.write('\n▶ setup: installing the dependencies (npm ci)\n');
  if (spawnSync('npm', ['ci', '--no-audit', '--no-fund'], { stdio: 'inherit' }).status !== 0) process.exit(1);
}

if (wants('e2e') && !findChromium()) {
  const isRoot = process.getuid?.() === 0;
  if (isRoot && existsSync('/usr/bin/apt-get')) {
    process.stdout.write("\n▶ setup: installing Debian's chromium for the end-to-end layer\n");
    const installed =
      spawnSync('apt-get', ['update', '-qq'], { stdio: 'inherit' }).status === 0 &&
      spawnSync('apt-get', ['install', '-y', '-qq', 'chromium'], { stdio: 'inherit' }).status === 0;
    if (!installed) process.exit(1);
  }
  if (!findChromium()) {
    process.stderr.write(
      '\nThe end-to-end layer needs Chromium and none was found. Install it with:\n' +
        '  sudo apt-get update && sudo apt-get install -y chromium\n' +
        'or set CHROME_PATH to a Chromium/Chrome binary. (Nothing is downloaded by the tests.)\n\n',
    );
    process.exit(1);
  }
}

if (wants('static')) {
  run('typecheck', 'npm', ['run', 'typecheck']);
  run('lint', 'npx', ['biome', 'ci', '.']);
}
if (wants('unit')) run('unit', 'npx', ['vitest', 'run', '--project', 'unit']);
if (wants('integration')) {
  run('integration (PGlite)', 'npx', ['vitest', 'run', '--project', 'integration'], {
    TEST_DATABASE: 'pglite',
  });
  if (process.env.DATABASE_URL) {
    run('integration (PostgreSQL)', 'npx', ['vitest', 'run', '--project', 'integration'], {
      TEST_DATABASE: 'postgres',
    });
  } else {
    process.stdout.write('\n(integration on PostgreSQL not run: set DATABASE_URL to include it)\n');
  }
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
const built = wants('e2e') || wants('cluster') ? run('build', 'npm', ['run', 'build']) : false;
if (wants('e2e') && built) {
  run('e2e', 'npx', ['playwright', 'test', '-c', 'e2e/playwright.config.ts']);
}
if (wants('cluster') && built) {
  if (process.env.DATABASE_URL && process.env.REDIS_URL && clusterReady()) {
    run('scale-out (3 processes behind HAProxy)', 'npx', ['vitest', 'run', '--project', 'cluster']);
  } else {
    process.stdout.write(
      '\n(scale-out not run: it needs DATABASE_URL, REDIS_URL and HAProxy — sudo apt-get install -y haproxy)\n',
    );
  }
}

process.stdout.write('\nTest layers:\n');
for (const { layer, ok, seconds } of results)
  process.stdout.write(`  ${ok ? 'pass' : 'FAIL'}  ${layer} (${seconds}s)\n`);
if (results.length === 0) {
  process.stderr.write('No test layer ran.\n');
  process.exit(1);
}
process.exit(results.every((result) => result.ok) ? 0 : 1);
