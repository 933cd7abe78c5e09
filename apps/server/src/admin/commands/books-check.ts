import { parseArgs } from 'node:util';
import { systemClock } from '../../lib/clock.js';
import { booksReportLines } from '../../modules/billing/books-report.js';
import { runBooksCheck } from '../../modules/billing/books-store.js';
import { createProviders } from '../../modules/providers/providers.js';
import { fetchJson } from '../../modules/providers/transport.js';
import { type AdminCommand, CommandFailure, UsageError } from '../command.js';

/**
 * The books check (billing/books-check.ts) run by hand: the ledger against the invoices, the
 * providers and the periods. The providers are reached over the network, so the built-in
 * sandboxes need the server running; `--offline` checks the database alone. Exit 1 when a
 * mismatch is found or an invoice could not be checked.
 */
export const command: AdminCommand = {
  name: 'books:check',
  summary:
    'Check that the books balance: the payment ledger against the invoices, the card gateway and QPay, and the periods; print each mismatch and exit 1 when there is one.',
  usage: 'books:check [--since <YYYY-MM-DD or ISO time>] [--offline] [--json]',
  async run(args, { config, db: openDb, print }) {
    const { values } = parseArgs({
      args,
      options: { since: { type: 'string' }, offline: { type: 'boolean' }, json: { type: 'boolean' } },
    });
    const since = values.since === undefined ? undefined : new Date(values.since);
    if (since && Number.isNaN(since.getTime())) {
      throw new UsageError('--since must be a date or time such as 2026-12-01 or 2026-12-01T08:00:00Z.');
    }
    const deps = {
      db: await openDb(),
      clock: systemClock,
      ...createProviders({ config, clock: systemClock }, fetchJson),
    };
    const report = await runBooksCheck(deps, 'command', { since, providers: !values.offline });
    if (values.json) print(JSON.stringify(report, null, 2));
    else for (const line of booksReportLines(report)) print(line);
    const { mismatches, unchecked } = report;
    if (mismatches.length > 0 || unchecked.length > 0) {
      throw new CommandFailure(
        `The books do not balance: ${mismatches.length} mismatch(es), ${unchecked.length} invoice(s) not checked.`,
      );
    }
  },
};
