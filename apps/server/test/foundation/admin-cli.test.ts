import { spawn } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { testDatabaseKind } from '../helpers/test-app.js';

/** `npm run admin -- …` as an operator runs it: a process, its output and its exit code. */
const CLI = fileURLToPath(new URL('../../src/admin/cli.ts', import.meta.url));
const dataDir = mkdtempSync(path.join(tmpdir(), 'tunes-cli-'));

function admin(...args: string[]): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, ['--conditions', 'source', '--import', 'tsx', CLI, ...args], {
      env: { ...process.env, DATA_DIR: dataDir, DATABASE_URL: '', LOG_LEVEL: 'silent' },
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk) => {
      stdout += chunk;
    });
    child.stderr.on('data', (chunk) => {
      stderr += chunk;
    });
    child.on('close', (code) => resolve({ code, stdout, stderr }));
  });
}

const COMMANDS = [
  'content:import',
  'feedback:list',
  'hmac:mint',
  'openapi:export',
  'payments:check',
  'payments:log',
  'users:show',
  'vouchers:create',
];

// The command line opens its own embedded database, so one run of the suite is enough.
describe.skipIf(testDatabaseKind === 'postgres')('npm run admin', () => {
  it('lists every command with exit 0', async () => {
    for (const args of [[], ['--help']]) {
      const { code, stdout } = await admin(...args);
      expect(code).toBe(0);
      for (const name of COMMANDS) expect(stdout).toContain(name);
    }
  }, 60_000);

  it('answers --help for every command with its usage and exit 0', async () => {
    const answers = await Promise.all(COMMANDS.map((name) => admin(name, '--help')));
    answers.forEach(({ code, stdout, stderr }, index) => {
      expect(code, COMMANDS[index]).toBe(0);
      expect(stdout).toContain(`Usage: npm run admin -- ${COMMANDS[index]}`);
      expect(stderr).toBe('');
    });
  }, 90_000);

  it('refuses a wrong argument with one line naming it, the usage, and exit 2', async () => {
    const unknownOption = await admin('users:show', '--bogus');
    expect(unknownOption.code).toBe(2);
    expect(unknownOption.stderr.split('\n')[0]).toBe("users:show: Unknown option '--bogus'");
    expect(unknownOption.stderr).not.toMatch(/\n\s+at /); // no stack trace

    const unknownCommand = await admin('vouchers:make');
    expect(unknownCommand.code).toBe(2);
    expect(unknownCommand.stderr).toContain('Unknown command: vouchers:make');
  }, 60_000);

  it('names the valid package codes when a voucher package is wrong', async () => {
    const { code, stderr } = await admin('vouchers:create', '--package', 'PREMIUM', '--days', '30');
    expect(code).toBe(2);
    expect(stderr.split('\n')[0]).toMatch(
      /^vouchers:create: --package: no package has the code PREMIUM\. Valid codes: /,
    );
  }, 60_000);
});
