import { parseArgs } from 'node:util';
import { systemClock } from '../../lib/clock.js';
import {
  checkPendingInvoices,
  lapseUnpaidRenewals,
  type SettlementDeps,
  settleInvoice,
} from '../../modules/premium/settlement.js';
import { createProviders } from '../../modules/providers/providers.js';
import { fetchJson } from '../../modules/providers/transport.js';
import { type AdminCommand, UsageError } from '../command.js';

/**
 * The periodic payment check, run once by hand (e.g. with PAYMENT_CHECK_INTERVAL_SECONDS=0):
 * confirms one invoice, or every pending one, with the provider, then ends unpaid card renewals.
 * The provider is reached over the network, so the built-in sandbox needs the server running.
 */
export const command: AdminCommand = {
  name: 'payments:check',
  summary:
    'Confirm pending invoices with the payment provider (activating paid ones once) and end card periods whose renewal was not paid.',
  usage: 'payments:check [--invoice <invoice id>]',
  async run(args, { config, db: openDb, print }) {
    const { values } = parseArgs({ args, options: { invoice: { type: 'string' } } });
    const invoiceId = values.invoice?.trim();
    if (values.invoice !== undefined && !invoiceId) throw new UsageError('--invoice needs an invoice id.');
    const deps: SettlementDeps = {
      config,
      db: await openDb(),
      clock: systemClock,
      ...createProviders({ config, clock: systemClock }, fetchJson),
      reportError: (error, message) => print(`${message}: ${(error as Error).message ?? String(error)}`),
    };
    if (invoiceId) {
      const status = await settleInvoice(deps, invoiceId, 'check');
      print(status ? `Invoice ${invoiceId}: ${status}.` : `No such invoice: ${invoiceId}.`);
    } else {
      print(`Checked ${await checkPendingInvoices(deps)} pending invoice(s).`);
    }
    print(`Ended auto-renew of ${await lapseUnpaidRenewals(deps)} unpaid card period(s).`);
  },
};
