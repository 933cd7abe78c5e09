/**
 * The settings every test app starts with (test-app.ts), and the run's template is prepared with
 * (job-queue-installer.ts), so both register the same jobs. No Vitest import: the installer runs
 * in a Node.js of its own.
 */
export const TEST_ENV: Record<string, string> = {
  NODE_ENV: 'test',
  LOG_LEVEL: 'silent',
  PUBLIC_URL: 'http://localhost:3000',
  WEB_DIST_DIR: '/nonexistent',
  // Every test file sends its codes from one loopback address; the suites that test the
  // per-client send budget set their own.
  SENDS_PER_CLIENT_HOURLY: '100000',
  // Background jobs only when a test asks; the others run them by hand (app.jobs.runDue).
  PAYMENT_CHECK_INTERVAL_SECONDS: '0',
};
