import { execFileSync } from 'node:child_process';
import { copyFileSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, expect, it } from 'vitest';
import {
  endLeftovers,
  processesOf,
  repositoryRoot,
  runNpm,
  stopNpm,
  waitForOutput,
} from './npm-processes.js';

/**
 * A newcomer's first `npm start` on a fresh clone (docs/operations.md "Stopping"): it installs
 * the dependencies and builds, and leaves the clone as it was. The clone is a copy of this tree's
 * files (committed or not, as `git status` sees them) committed in a repository of its own, and
 * npm is the one that comes with Node.js 20 (10.8.2), whose `npm install` rewrote
 * package-lock.json (dropping its `libc` fields). Stopping `npm start` while it builds ends the
 * build's every process.
 */
let clone: string;
let npmPath: string;

beforeAll(() => {
  clone = mkdtempSync(path.join(tmpdir(), 'tunes-clone-'));
  const files = execFileSync('git', ['ls-files', '--cached', '--others', '--exclude-standard', '-z'], {
    cwd: repositoryRoot,
    encoding: 'utf8',
  })
    .split('\0')
    .filter(Boolean);
  for (const file of files) {
    mkdirSync(path.dirname(path.join(clone, file)), { recursive: true });
    try {
      copyFileSync(path.join(repositoryRoot, file), path.join(clone, file));
    } catch {
      // Deleted in the tree but not yet in git's index.
    }
  }
  const git = (...args: string[]) =>
    execFileSync('git', ['-c', 'user.name=test', '-c', 'user.email=test@localhost', ...args], {
      cwd: clone,
      encoding: 'utf8',
    });
  git('init', '-q');
  git('add', '-A');
  git('commit', '-qm', 'a fresh clone');
  // The npm of Node.js 20, from the registry npm itself uses (npm exec keeps it in its cache).
  const npm10 = execFileSync(
    'npm',
    ['exec', '--yes', '--package=npm@10.8.2', '--', 'sh', '-c', 'command -v npm'],
    { cwd: tmpdir(), encoding: 'utf8' },
  ).trim();
  npmPath = `${path.dirname(npm10)}:${process.env.PATH}`;
  const version = execFileSync('npm', ['--version'], {
    cwd: clone,
    env: { ...process.env, PATH: npmPath },
    encoding: 'utf8',
  });
  expect(version.trim()).toBe('10.8.2');
}, 120_000);
afterEach(endLeftovers);
afterAll(() => {
  rmSync(clone, { recursive: true, force: true });
});

const status = () => execFileSync('git', ['status', '--porcelain'], { cwd: clone, encoding: 'utf8' });
const start = () => {
  const { DATABASE_URL: _, REDIS_URL: __, ...inherited } = process.env;
  return runNpm(['start'], { ...inherited, PATH: npmPath, NODE_ENV: 'development' }, clone);
};

it('a first `npm start` installs the dependencies without changing the clone, and SIGTERM stops its build', async () => {
  const run = start();
  await waitForOutput(run, '▶ npm start: building', 200_000);
  expect(run.output()).toContain('▶ npm start: installing the dependencies (npm ci)');
  // Let the build reach its nested npm, shell and compiler.
  await new Promise((resolve) => setTimeout(resolve, 1_500));
  expect(processesOf(run).length).toBeGreaterThan(2);
  expect(await stopNpm(run, 'SIGTERM')).toEqual([]);
  expect(status()).toBe('');
});

it('a second `npm start` installs nothing, and SIGINT stops its build', async () => {
  const run = start();
  await waitForOutput(run, '▶ npm start: building');
  expect(run.output()).not.toContain('installing the dependencies');
  await new Promise((resolve) => setTimeout(resolve, 1_500));
  expect(await stopNpm(run, 'SIGINT')).toEqual([]);
  expect(status()).toBe('');
});
