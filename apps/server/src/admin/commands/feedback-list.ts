import { parseArgs } from 'node:util';
import { formatFeedbackEntry, listFeedback } from '../../modules/content/feedback.js';
import { type AdminCommand, UsageError } from '../command.js';

export const command: AdminCommand = {
  name: 'feedback:list',
  summary: 'List feedback sent from the contact page, newest first.',
  usage: 'feedback:list [--limit <n>] [--email <address>] [--since <YYYY-MM-DD>] [--json]',
  async run(args, { db: openDb, print }) {
    const { values } = parseArgs({
      args,
      options: {
        limit: { type: 'string' },
        email: { type: 'string' },
        since: { type: 'string' },
        json: { type: 'boolean' },
      },
    });
    const limit = values.limit === undefined ? 50 : Number(values.limit);
    if (!Number.isInteger(limit) || limit < 1 || limit > 10_000)
      throw new UsageError('--limit must be a whole number from 1 to 10000.');
    const since = values.since === undefined ? undefined : new Date(values.since);
    if (since && Number.isNaN(since.getTime()))
      throw new UsageError('--since must be a date such as 2026-11-01.');

    const entries = await listFeedback({ db: await openDb() }, { limit, email: values.email, since });
    if (values.json) {
      print(JSON.stringify(entries, null, 2));
      return;
    }
    if (entries.length === 0) {
      print('No feedback.');
      return;
    }
    print(entries.map(formatFeedbackEntry).join('\n\n'));
  },
};
