import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { UsageError } from '../../src/admin/command.js';
import { command } from '../../src/admin/commands/vouchers-create.js';
import { createUser, familyPackage } from '../helpers/factories.js';
import { createTestApp, type TestApp } from '../helpers/test-app.js';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => {
  await t.close();
});

async function run(args: string[]) {
  const lines: string[] = [];
  await command.run(args, { config: t.config, db: async () => t.db, print: (line) => lines.push(line) });
  return lines;
}

describe('npm run admin -- vouchers:create', () => {
  it('prints the requested number of codes, each redeemable for the package', async () => {
    const pkg = await familyPackage(t.db);
    const [summary, ...codes] = await run(['--package', pkg.merchant_code, '--days', '14', '--count', '3']);
    expect(summary).toBe('3 voucher(s) for Premium Family, 14 day(s) each:');
    expect(codes).toHaveLength(3);
    const response = await t.app.inject({
      method: 'POST',
      url: `/api/users/redeemvoucher?code=${codes[0]}`,
      headers: await t.authHeader((await createUser(t.db)).id),
    });
    expect(response.statusCode).toBe(200);
    const { StartDate, EndDate } = response.json();
    expect(new Date(EndDate).getTime() - new Date(StartDate).getTime()).toBe(14 * 24 * 60 * 60 * 1000);
  });

  it('names the valid package codes when the package is wrong', async () => {
    const pkg = await familyPackage(t.db);
    await expect(run(['--package', 'PREMIUM', '--days', '30'])).rejects.toThrow(
      new RegExp(`^--package: no package has the code PREMIUM\\. Valid codes: .*${pkg.merchant_code}`),
    );
  });

  it('refuses an unknown package, bad numbers and a past or unreadable expiry', async () => {
    const pkg = await familyPackage(t.db);
    await expect(run(['--package', 'NO_SUCH_PLAN', '--days', '30'])).rejects.toThrow(UsageError);
    await expect(run(['--package', pkg.merchant_code, '--days', '0'])).rejects.toThrow(/--days/);
    await expect(run(['--package', pkg.merchant_code, '--days', '3', '--count', 'x'])).rejects.toThrow(
      /--count/,
    );
    await expect(run(['--package', pkg.merchant_code, '--days', '3', '--expires', 'soon'])).rejects.toThrow(
      /--expires/,
    );
    await expect(
      run(['--package', pkg.merchant_code, '--days', '3', '--expires', '2001-01-01']),
    ).rejects.toThrow(/future/);
    const count = await t.db
      .selectFrom('vouchers')
      .select((eb) => eb.fn.countAll<string>().as('n'))
      .where('package_id', '=', pkg.id)
      .executeTakeFirstOrThrow();
    expect(Number(count.n)).toBe(0);
  });
});
