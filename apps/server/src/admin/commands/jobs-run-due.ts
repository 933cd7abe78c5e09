import { parseArgs } from 'node:util';
import { createDeps } from '../../deps.js';
import { JobQueue } from '../../lib/job-queue.js';
import { registerBillingJobs } from '../../modules/billing/jobs.js';
import { ebarimtJobKind } from '../../modules/ebarimt/jobs.js';
import type { AdminCommand } from '../command.js';

/**
 * The job queue's due work, run once by hand (e.g. with PAYMENT_CHECK_INTERVAL_SECONDS=0):
 * renewal reminders, charges, retries and lapses, pending invoices (card and QPay), e-barimt
 * receipts, message redelivery. The providers are reached over the network, so the built-in sandboxes need the server running.
 */
export const command: AdminCommand = {
  name: 'jobs:run-due',
  summary:
    'Run every due background job once (renewal reminders, charges, retries and lapses, pending invoices, e-barimt receipts, message redelivery) and print how many of each ran.',
  usage: 'jobs:run-due',
  async run(args, { config, db: openDb, print }) {
    parseArgs({ args, options: {} });
    const db = await openDb();
    const deps = createDeps({
      config,
      db,
      dbKind: config.DATABASE_URL ? 'postgres' : 'pglite',
      reportError: (error, message) => print(`${message}: ${(error as Error).message ?? String(error)}`),
    });
    const log = {
      error: (details: unknown, message?: string) => print(`${message ?? ''} ${String(details)}`),
    };
    const queue = new JobQueue(db, deps.dbKind, deps.clock, log);
    registerBillingJobs(queue, deps);
    if (config.ebarimtEnabled) queue.register(ebarimtJobKind(deps));
    try {
      const { ran } = await queue.runDue();
      for (const { name, count } of ran) print(`${name}: ${count}`);
    } finally {
      await queue.stop();
      await deps.close();
    }
  },
};
