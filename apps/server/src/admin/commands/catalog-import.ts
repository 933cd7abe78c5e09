import { parseArgs } from 'node:util';
import { systemClock } from '../../lib/clock.js';
import { CatalogRefused, checkCatalog, readCatalogFile } from '../../modules/catalog/catalog-file.js';
import {
  type CatalogImportReport,
  changedNothing,
  importCatalog,
} from '../../modules/catalog/catalog-import.js';
import { type AdminCommand, CommandFailure, UsageError } from '../command.js';

const codes = (list: string[]) => (list.length > 0 ? ` (${list.join(', ')})` : '');

/** What the import did, one line per part, as the operator reads it. */
export function describeImport(report: CatalogImportReport): string[] {
  const { plans, content } = report;
  if (changedNothing(report)) {
    return [
      `Nothing changed: the site already has this catalog (${plans.unchanged.length} plans${content.outcome === 'unchanged' ? ', the landing content' : ''}).`,
    ];
  }
  const lines = [
    `Merchant: ${report.merchant}.`,
    `Plans: ${plans.added.length} added${codes(plans.added)}, ${plans.changed.length} changed${codes(
      plans.changed.map(({ code, fields }) => `${code}: ${fields.join(', ')}`),
    )}, ${plans.retired.length} retired${codes(plans.retired)}, ${plans.unchanged.length} unchanged.`,
  ];
  if (plans.retired.length > 0) {
    lines.push('Retired plans are no longer sold; their subscribers keep them and renew.');
  }
  for (const { code, reason } of plans.notSold) lines.push(`Not sold on /premium: ${code} (${reason}).`);
  for (const change of plans.priceChanges) {
    lines.push(
      `New price: ${change.code} ${change.from} → ${change.to} for new sales now; current subscribers (${change.notices} told) from their first renewal on or after ${change.takesEffectAt}.`,
    );
  }
  if (content.outcome === 'imported') {
    const { ARTIST, SONG, PLAYLIST } = content.cards;
    lines.push(
      `Landing content: imported (${ARTIST} ARTIST, ${SONG} SONG, ${PLAYLIST} PLAYLIST cards); content revision ${content.revision}.`,
    );
  } else {
    lines.push(
      `Landing content: ${content.outcome === 'absent' ? 'not in the file, left as it is' : 'unchanged'}.`,
    );
  }
  return lines;
}

export const command: AdminCommand = {
  name: 'catalog:import',
  summary:
    'Apply a catalog file (JSON or YAML: plans, prices, seats, landing content) in one transaction; running it again changes nothing.',
  usage: 'catalog:import <file.yaml|file.json>',
  async run(args, { db: openDb, print }) {
    const { positionals } = parseArgs({ args, options: {}, allowPositionals: true });
    const [file, ...rest] = positionals;
    if (!file || rest.length > 0) throw new UsageError('Give exactly one catalog file.');
    try {
      let input: unknown;
      try {
        input = await readCatalogFile(file);
      } catch (error) {
        if (error instanceof CatalogRefused) throw error;
        throw new UsageError(`Cannot read ${file}: ${(error as Error).message}`);
      }
      // Checked before the database is opened: a refused file touches nothing.
      const catalog = checkCatalog(input);
      const report = await importCatalog({ db: await openDb(), clock: systemClock }, catalog);
      for (const line of describeImport(report)) print(line);
    } catch (error) {
      if (!(error instanceof CatalogRefused)) throw error;
      const problems = error.problems.map((problem) => `  ${problem.path}: ${problem.message}`);
      throw new CommandFailure(`${file} was refused; nothing was changed:\n${problems.join('\n')}`);
    }
  },
};
