#!/usr/bin/env node
// `npm test`: every layer, in order, failing on any failed or missing one.
//   static      typecheck + lint (Biome)
//   unit        Vitest, pure functions of every package
//   integration the API against PGlite, and against PostgreSQL when DATABASE_URL is set
//   e2e         Playwright in the system Chromium against the built site
// Set TEST_LAYERS=unit,integration to run some layers only (the summary still names skipped ones).
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';

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

if (wants('e2e') && !findChromium()) {
  process.stderr.write(
    '\nThe end-to-end layer needs Chromium and none was found.\n' +
      'Install it (as root):  apt-get update && apt-get install -y chromium\n' +
      'or set CHROME_PATH to a Chromium/Chrome binary. (Nothing is downloaded by the tests.)\n\n',
  );
  process.exit(1);
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
if (wants('e2e')) {
  if (run('build', 'npm', ['run', 'build'])) {
    run('e2e', 'npx', ['playwright', 'test', '-c', 'e2e/playwright.config.ts']);
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
