import { parseArgs } from 'node:util';
import { listPaymentLog } from '../../modules/providers/payment-log.js';
import { type AdminCommand, UsageError } from '../command.js';

export const command: AdminCommand = {
  name: 'payments:log',
  summary: "Show an invoice's state and its payment log, oldest step first.",
  usage: 'payments:log --invoice <invoice id>',
  async run(args, { db: openDb, print }) {
    const { values } = parseArgs({ args, options: { invoice: { type: 'string' } } });
    const invoiceId = values.invoice?.trim();
    if (!invoiceId) throw new UsageError('Give --invoice.');
    const db = await openDb();
    const invoice = await db
      .selectFrom('payment_invoices')
      .selectAll()
      .where('invoice_id', '=', invoiceId)
      .executeTakeFirst();
    if (!invoice) {
      print('No such invoice.');
      return;
    }
    print(JSON.stringify({ invoice, log: await listPaymentLog({ db }, invoiceId) }, null, 2));
  },
};
