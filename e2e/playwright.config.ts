import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { defineConfig, devices } from '@playwright/test';
import { CHROMIUM_HELP, findChromium } from './chromium';

const executablePath = findChromium();
if (!executablePath) throw new Error(CHROMIUM_HELP);

// Evaluated once in the runner before workers start; workers inherit these through the env.
// A port per run, below Linux's ephemeral range and clear of this machine's services (PostgreSQL
// 5432, RabbitMQ 5672 and 4369, NATS 4222 sat in the old 4100–5899 range).
process.env.E2E_PORT ??= String(20_000 + (process.pid % 10_000));
if (!process.env.E2E_DATA_DIR) {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'tunes-e2e-'));
  process.env.E2E_DATA_DIR = dataDir;
  // The shared server's database (~40 MB) goes when the runner ends, after it stopped the server;
  // workers, which have the variable already, never come here.
  process.once('exit', () => rmSync(dataDir, { recursive: true, force: true }));
}
// Where the first server of its own makes the database the others start from (own-server.ts).
process.env.E2E_OWN_TEMPLATE ??= mkdtempSync(path.join(tmpdir(), 'tunes-e2e-template-'));
const port = Number(process.env.E2E_PORT);

// Files whose tests run on a server of their own for the file (own-server.ts):
// their tests run in one worker, in order, so the file starts one server rather than one in
// each worker. They are scheduled first, so the long ones do not end the run alone.
const testsDir = path.join(path.dirname(fileURLToPath(import.meta.url)), 'tests');
const ownServerFiles = readdirSync(testsDir)
  .filter((file) => file.endsWith('.spec.ts'))
  .filter((file) =>
    /\b(testOnOwnServer|testOnServerWith)\b/.test(readFileSync(path.join(testsDir, file), 'utf8')),
  )
  .map((file) => path.join(testsDir, file));
const chromium = { ...devices['Desktop Chrome'], channel: undefined };

const baseURL = `http://localhost:${port}`;

export default defineConfig({
  testDir: './tests',
  // After every test, the books of the shared server must balance (the server is stopped after this).
  globalTeardown: './books-teardown.ts',
  fullyParallel: true,
  forbidOnly: true,
  workers: 2,
  retries: 0,
  timeout: 60_000,
  expect: { timeout: 10_000 },
  // `npm test` asks for a JSON report too (PLAYWRIGHT_JSON_OUTPUT_FILE) to name failures last.
  reporter: [
    ['list'],
    ...(process.env.CI ? [['html', { open: 'never' }] as const] : []),
    ...(process.env.PLAYWRIGHT_JSON_OUTPUT_FILE ? [['json'] as const] : []),
  ],
  use: {
    baseURL,
    // Actions, DOM snapshots and network of a failed test; no screencast (its frames cost ~20 % of
    // the layer's CPU, and the failure's own screenshot is kept). None under CI: its clone goes
    // with the run, so no one opens a trace there, and recording one for every test cost ~6 % of
    // the layer's CPU and wall time (A B A B on three specs, 2026-11-27). Rerun a failure locally.
    trace: process.env.CI ? 'off' : { mode: 'retain-on-failure', screenshots: false },
    screenshot: 'only-on-failure',
    launchOptions: {
      executablePath,
      args: [
        '--headless',
        '--no-sandbox',
        '--disable-gpu',
        '--disable-background-networking',
        '--disable-dev-shm-usage',
      ],
    },
  },
  projects: [
    { name: 'chromium-own-server', use: chromium, testMatch: ownServerFiles, fullyParallel: false },
    { name: 'chromium', use: chromium, testIgnore: ownServerFiles },
  ],
  webServer: {
    command: 'node ../apps/server/dist/server.js',
    url: `${baseURL}/api/health`,
    reuseExistingServer: false,
    timeout: 60_000,
    stdout: 'ignore',
    stderr: 'pipe',
    env: {
      NODE_ENV: 'development',
      PORT: String(port),
      HOST: '127.0.0.1',
      PUBLIC_URL: baseURL,
      DATA_DIR: process.env.E2E_DATA_DIR,
      DATABASE_URL: '',
      // A helper or CI may build the site elsewhere so parallel builds do not disturb a running suite.
      WEB_DIST_DIR: process.env.E2E_WEB_DIST_DIR ?? '',
      LOG_LEVEL: 'warn',
      SEED_DEMO_DATA: 'true',
      PAYMENT_CHECK_INTERVAL_SECONDS: '5',
      // Every test signs in from 127.0.0.1; the send budgets are proven by the API suite.
      SENDS_PER_CLIENT_HOURLY: '100000',
      SMS_HOURLY_BUDGET: '100000',
      // Throttles in this run's own database, not in a Redis that other runs share.
      REDIS_URL: '',
    },
  },
});
