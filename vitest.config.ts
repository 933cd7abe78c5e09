import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';

const resolve = {
  conditions: ['source', 'module', 'import', 'default'],
  alias: { '@': fileURLToPath(new URL('./apps/web/src', import.meta.url)) },
};

const UNIT_TESTS = ['packages/*/src/**/*.test.ts', 'apps/*/src/**/*.test.{ts,tsx}'];

/**
 * Unit test files that replace a module (`vi.mock`): they run apart, each with modules of its own,
 * since in a module graph shared with other files the replaced module may already be loaded for
 * real. The others share one graph: they load React, i18next and zod once, not once a file.
 */
const MOCKING_UNIT_TESTS = ['packages', 'apps']
  .flatMap((root) => readdirSync(root).map((workspace) => `${root}/${workspace}/src`))
  .filter((sources) => existsSync(sources))
  .flatMap((sources) =>
    readdirSync(sources, { recursive: true, encoding: 'utf8' }).map((file) => `${sources}/${file}`),
  )
  .filter((file) => /\.test\.tsx?$/.test(file) && /\bvi\.mock\(/.test(readFileSync(file, 'utf8')));

/**
 * Two layers run by Vitest: `unit` (pure functions of every package, no I/O) and
 * `integration` (the real API through `app.inject()` against a real database: PGlite, or the
 * PostgreSQL server of DATABASE_URL when TEST_DATABASE=postgres).
 */
export default defineConfig({
  resolve,
  ssr: { resolve: { conditions: ['source'], externalConditions: ['source'] } },
  test: {
    projects: [
      {
        extends: true,
        test: {
          name: 'unit',
          include: UNIT_TESTS,
          exclude: MOCKING_UNIT_TESTS,
          environment: 'node',
          // The layer's 40 files in 4.8 s, with the mocking ones apart, against 13.4 s (11-28, quiet).
          isolate: false,
        },
      },
      {
        extends: true,
        test: { name: 'unit-mocking', include: MOCKING_UNIT_TESTS, environment: 'node' },
      },
      {
        extends: true,
        test: {
          // The built server as N processes behind HAProxy (scripts/lib/cluster.mjs); after a build.
          name: 'cluster',
          include: ['apps/server/test-cluster/**/*.test.ts'],
          testTimeout: 240_000,
          hookTimeout: 240_000,
          pool: 'forks',
          // Two files at once: each starts processes of its own on free ports, with a database and
          // a Redis database of its own, and much of their time is waiting on those processes
          // (141 s one at a time, 116 s two at once, 2026-11-28).
          maxWorkers: 2,
        },
      },
      {
        extends: true,
        test: {
          name: 'integration',
          include: ['apps/server/test/**/*.test.ts'],
          globalSetup: ['apps/server/test/global-setup.ts'],
          testTimeout: 30_000,
          hookTimeout: 180_000,
          pool: 'forks',
          maxWorkers: 2,
          // Each of the two processes runs file after file with the modules it has already
          // loaded: a file still gets a database and an app of its own (createTestApp), but no
          // longer pays ~2 s of CPU to load the app's 340 modules again (docs/performance.md,
          // "Suite time"). Module state is caches only; a file that stubs a global restores it.
          isolate: false,
        },
      },
    ],
  },
});
