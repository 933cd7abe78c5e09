import { execFile } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import type { Page } from '@playwright/test';
import { generate } from 'otplib';
import { expect, randomEmail, test } from '../fixtures';
import { type OwnServer, startOwnServer } from '../own-server';
import { audit } from './a11y-helpers';

/**
 * Issue 38: the console's first-run panel on a site that starts empty (no demo data) says what
 * is missing before it can sell, in English and Mongolian, with the command to run; once the
 * operator has run `catalog:import` (server stopped: the embedded database is locked while it
 * runs) it says the site is ready.
 */

const CLI = fileURLToPath(new URL('../../apps/server/dist/admin/cli.js', import.meta.url));
const DEMO_CATALOG = fileURLToPath(new URL('../../apps/server/catalog/demo.yaml', import.meta.url));
const EMPTY_SITE = { SEED_DEMO_DATA: 'false' };
const IMPORT = 'npm run admin -- catalog:import <catalog.yaml>';

const panel = (page: Page) => page.getByRole('region', { name: /Opening for business|Борлуулалт эхлүүлэх/ });
const check = (page: Page, name: string) => panel(page).getByRole('listitem').filter({ hasText: name });

test('the first-run panel says what an empty site lacks, in both languages, and is clear after the import', async ({
  page,
  request,
}) => {
  test.setTimeout(180_000);
  const dataDir = mkdtempSync(path.join(tmpdir(), 'tunes-e2e-first-run-'));
  let server: OwnServer | undefined = await startOwnServer({ ...EMPTY_SITE, DATA_DIR: dataDir });
  try {
    const email = randomEmail('admin');
    const made = await request.post(`${server.origin}/dev/admin/operators`, {
      data: { email, role: 'admin' },
    });
    expect(made.status(), await made.text()).toBe(201);
    const { password, totpSecret } = (await made.json()) as { password: string; totpSecret: string };

    await page.goto(`${server.origin}/admin`);
    await page.getByLabel('E-mail').fill(email);
    await page.getByLabel('Password').fill(password);
    await page.getByLabel('Authenticator code').fill(await generate({ secret: totpSecret }));
    await page.getByRole('button', { name: 'Sign in' }).click();
    await expect(page.getByRole('heading', { level: 1, name: 'Dashboard' })).toBeVisible();

    await expect(panel(page).getByText('Not ready to sell yet: fix what is missing below.')).toBeVisible();
    await expect(check(page, 'Plans on sale')).toContainText('Missing');
    await expect(check(page, 'Plans on sale')).toContainText('None yet: import a catalog.');
    await expect(check(page, 'Plans on sale').getByText(IMPORT)).toBeVisible();
    await expect(check(page, 'Landing page in English')).toContainText('Missing');
    await expect(check(page, 'Landing page in Mongolian')).toContainText('Missing');
    await expect(check(page, 'Card payments')).toContainText('The built-in sandbox');
    await expect(check(page, 'Console operators')).toContainText('Only one admin');
    expect(await audit(page, 'first-run'), 'serious accessibility findings').toEqual([]);

    await page.getByRole('button', { name: 'Монгол' }).click();
    await expect(panel(page).getByRole('heading', { name: 'Борлуулалт эхлүүлэх' })).toBeVisible();
    await expect(
      panel(page).getByText('Борлуулахад хараахан бэлэн биш: доорх дутуу зүйлсийг засна уу.'),
    ).toBeVisible();
    await expect(check(page, 'Худалдаалж буй багц')).toContainText('Дутуу');
    await expect(check(page, 'Худалдаалж буй багц')).toContainText('Одоогоор алга: каталог импортлоно уу.');
    await expect(check(page, 'Нүүр хуудас, монгол хэлээр')).toContainText('Дутуу');
    await expect(check(page, 'Худалдаалж буй багц').getByText(IMPORT)).toBeVisible();

    // The operator stops the site, runs the command on its data, and starts it again.
    await server.stop();
    server = undefined;
    const { stdout } = await promisify(execFile)(process.execPath, [CLI, 'catalog:import', DEMO_CATALOG], {
      cwd: fileURLToPath(new URL('..', import.meta.url)),
      env: {
        ...process.env,
        NODE_ENV: 'development',
        DATA_DIR: dataDir,
        DATABASE_URL: '',
        REDIS_URL: '',
        LOG_LEVEL: 'warn',
        ...EMPTY_SITE,
      },
    });
    expect(stdout).toContain('Plans: 5 added');
    server = await startOwnServer({ ...EMPTY_SITE, DATA_DIR: dataDir });

    // The session lives in the database (and the cookie is the host's), so the console is still open.
    await page.goto(`${server.origin}/admin`);
    await expect(panel(page).getByText('Ready to sell: listeners can sign in and buy a plan.')).toBeVisible();
    await expect(panel(page).getByText('Missing')).toHaveCount(0);
    await panel(page).getByText('Done (').click();
    await expect(check(page, 'Plans on sale')).toContainText('3 plans on sale');
    await expect(check(page, 'Landing page in Mongolian')).toContainText('28 cards');

    await page.getByRole('button', { name: 'Монгол' }).click();
    await expect(
      panel(page).getByText('Борлуулахад бэлэн: сонсогчид нэвтэрч, багц худалдаж авах боломжтой.'),
    ).toBeVisible();
    await expect(panel(page).getByText('Дутуу')).toHaveCount(0);
    await expect(check(page, 'Худалдаалж буй багц')).toContainText('3 багц худалдаалж байна');
  } finally {
    await server?.stop();
  }
});
