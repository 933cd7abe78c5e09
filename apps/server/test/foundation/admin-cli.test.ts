import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { runAdmin } from '../helpers/admin.js';
import { testDatabaseKind } from '../helpers/test-app.js';

const dataDir = mkdtempSync(path.join(tmpdir(), 'tunes-cli-'));

const admin = (...args: string[]) => runAdmin(dataDir, ...args);

const COMMANDS = [
  'backup',
  'books:check',
  'catalog:import',
  'content:import',
  'feedback:list',
  'hmac:mint',
  'jobs:run-due',
  'openapi:export',
  'payments:check',
  'payments:log',
  'restore',
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
  });

  it('answers --help for every command with its usage and exit 0', async () => {
    const answers = [];
    for (const name of COMMANDS) answers.push(await admin(name, '--help'));
    answers.forEach(({ code, stdout, stderr }, index) => {
      expect(code, COMMANDS[index]).toBe(0);
      expect(stdout).toContain(`Usage: npm run admin -- ${COMMANDS[index]}`);
      expect(stderr).toBe('');
    });
  });

  it('refuses a wrong argument with one line naming it, the usage, and exit 2', async () => {
    const unknownOption = await admin('users:show', '--bogus');
    expect(unknownOption.code).toBe(2);
    expect(unknownOption.stderr.split('\n')[0]).toBe("users:show: Unknown option '--bogus'");
    expect(unknownOption.stderr).not.toMatch(/\n\s+at /); // no stack trace

    const missingDays = await admin('vouchers:create', '--package', 'PREMIUM_1M');
    expect(missingDays.code).toBe(2);
    expect(missingDays.stderr.split('\n')[0]).toBe(
      'vouchers:create: --days: Give the number of days each voucher grants, 1 to 3660.',
    );

    const importOption = await admin('content:import', '--dry-run', 'content.json');
    expect(importOption.code).toBe(2);
    expect(importOption.stderr.split('\n')[0]).toMatch(/^content:import: Unknown option '--dry-run'/);

    const unknownCommand = await admin('vouchers:make');
    expect(unknownCommand.code).toBe(2);
    expect(unknownCommand.stderr).toContain('Unknown command: vouchers:make');
  });

  it('sells the plans the site will sell before the server has ever started on the DATA_DIR', async () => {
    const fresh = mkdtempSync(path.join(tmpdir(), 'tunes-cli-fresh-'));
    const created = await runAdmin(fresh, 'vouchers:create', '--package', 'PREMIUM_1M', '--days', '30');
    expect(created.stderr).toBe('');
    expect(created.code).toBe(0);
    expect(created.stdout.split('\n')[0]).toMatch(/^1 voucher\(s\) for Premium.*, 30 day\(s\) each:$/);

    const wrong = await runAdmin(fresh, 'vouchers:create', '--package', 'PREMIUM', '--days', '30');
    expect(wrong.code).toBe(2);
    expect(wrong.stderr.split('\n')[0]).toMatch(/Valid codes: .*PREMIUM_1M/);
  }, 120_000);
});
