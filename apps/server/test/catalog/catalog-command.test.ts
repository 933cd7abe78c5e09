import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, inject, it } from 'vitest';
import { stringify } from 'yaml';
import { runCli } from '../../src/admin/run-cli.js';
import { DEMO_CATALOG_FILE, demoCatalog } from '../../src/modules/catalog/catalog-file.js';
import { migratedDataDir } from '../helpers/pglite-snapshot.js';
import { testDatabaseKind } from '../helpers/test-app.js';

const work = mkdtempSync(path.join(tmpdir(), 'tunes-catalog-'));

/** `npm run admin -- …` on an embedded database of its own, as an operator runs it. */
async function admin(env: Record<string, string>, ...args: string[]) {
  let stdout = '';
  let stderr = '';
  const code = await runCli(args, {
    stdout: (text) => {
      stdout += text;
    },
    stderr: (text) => {
      stderr += text;
    },
    env: { LOG_LEVEL: 'silent', ...env },
  });
  return { code, stdout, stderr };
}

function writeFile(name: string, text: string): string {
  const file = path.join(work, name);
  writeFileSync(file, text);
  return file;
}

// The command line opens its own embedded database, so one run of the suite is enough (the
// PostgreSQL path of the command is opening-for-business.test.ts).
// Each run opens the embedded database on disk (a few seconds each); each starts from a copy of
// the run's migrated cluster.
describe.skipIf(testDatabaseKind === 'postgres')(
  'npm run admin -- catalog:import',
  { timeout: 120_000 },
  () => {
    it('loads a YAML catalog into an empty database, then changes nothing on a second run', async () => {
      const empty = {
        DATA_DIR: migratedDataDir(inject('pgliteSnapshot'), 'tunes-catalog-empty-'),
        SEED_DEMO_DATA: 'false',
      };
      const first = await admin(empty, 'catalog:import', DEMO_CATALOG_FILE);
      expect(first.stderr).toBe('');
      expect(first.code).toBe(0);
      expect(first.stdout).toContain(
        'Plans: 5 added (PREMIUM_1M, PREMIUM_DUO_1M, PREMIUM_FAMILY_1M, PREMIUM_1M_USD, PREMIUM_12M), 0 changed, 0 retired, 0 unchanged.',
      );
      expect(first.stdout).toContain(
        'Not sold on /premium: PREMIUM_1M_USD (currency USD; the site sells in MNT).',
      );
      expect(first.stdout).toContain(
        'Landing content: imported (8 ARTIST, 12 SONG, 8 PLAYLIST cards); content revision 1.',
      );

      const second = await admin(empty, 'catalog:import', DEMO_CATALOG_FILE);
      expect(second.code).toBe(0);
      expect(second.stdout).toBe(
        'Nothing changed: the site already has this catalog (5 plans, the landing content).\n',
      );

      // The same catalog as JSON, less one plan and without content: that plan is retired.
      const file = demoCatalog();
      const json = writeFile(
        'catalog.json',
        JSON.stringify({
          ...file,
          content: undefined,
          plans: file.plans.filter((plan) => plan.code !== 'PREMIUM_12M'),
        }),
      );
      const third = await admin(empty, 'catalog:import', json);
      expect(third.code).toBe(0);
      expect(third.stdout).toContain('0 changed, 1 retired (PREMIUM_12M), 4 unchanged.');
      expect(third.stdout).toContain(
        'Retired plans are no longer sold; their subscribers keep them and renew.',
      );
      expect(third.stdout).toContain('Landing content: not in the file, left as it is.');
    });

    it('refuses a bad entry naming it, with exit 1 and nothing written', async () => {
      const dataDir = {
        DATA_DIR: migratedDataDir(inject('pgliteSnapshot'), 'tunes-catalog-refusals-'),
        SEED_DEMO_DATA: 'false',
      };
      const catalog = structuredClone(demoCatalog()) as unknown as { plans: Record<string, unknown>[] };
      catalog.plans[2] = { ...catalog.plans[2], price: -5 };
      const bad = writeFile('bad.yaml', stringify(catalog));
      const refused = await admin(dataDir, 'catalog:import', bad);
      expect(refused.code).toBe(1);
      expect(refused.stderr).toBe(
        `${bad} was refused; nothing was changed:\n  plans[2].price: must be at least 1\n`,
      );

      const broken = writeFile('broken.yaml', 'plans:\n  - code: PREMIUM_1M\n    price: [6900\n');
      const syntax = await admin(dataDir, 'catalog:import', broken);
      expect(syntax.code).toBe(1);
      expect(syntax.stderr).toMatch(
        /^.*broken\.yaml was refused; nothing was changed:\n {2}\(file\): is not valid yaml: .* at line \d+, column \d+:\n$/,
      );

      // Nothing was written by either: the plans list of the database is still empty.
      const check = await admin(
        dataDir,
        'catalog:import',
        writeFile('one.yaml', stringify({ plans: [catalog.plans[0]] })),
      );
      expect(check.stdout).toContain('Plans: 1 added (PREMIUM_1M), 0 changed, 0 retired, 0 unchanged.');

      const usage = await admin(dataDir, 'catalog:import');
      expect(usage.code).toBe(2);
      expect(usage.stderr.split('\n')[0]).toBe('catalog:import: Give exactly one catalog file.');
      const text = await admin(dataDir, 'catalog:import', writeFile('catalog.txt', 'plans: []'));
      expect(text.code).toBe(1);
      expect(text.stderr).toContain('(file): must be a .json, .yaml or .yml file');
    });

    it('changes nothing on a development database: the demo seeds are the demo catalog', async () => {
      const seeded = await admin(
        { DATA_DIR: migratedDataDir(inject('pgliteSnapshot'), 'tunes-catalog-seeded-') },
        'catalog:import',
        DEMO_CATALOG_FILE,
      );
      expect(seeded.code).toBe(0);
      expect(seeded.stdout).toBe(
        'Nothing changed: the site already has this catalog (5 plans, the landing content).\n',
      );
    });
  },
);
