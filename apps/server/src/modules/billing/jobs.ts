import { REMINDER_DAYS_BEFORE } from '@tunes/shared/billing';
import { DAY_MS } from '@tunes/shared/constants';
import type { Deps } from '../../deps.js';
import type { JobKind, JobQueue } from '../../lib/job-queue.js';
import { dueRedeliveries, redeliver } from '../notifications/outbox.js';
import {
  invoicesWithOpenAttempts,
  lapseUnpaidRenewals,
  openProviderInvoices,
  settleInvoice,
} from '../premium/settlement.js';
import { refundOpenSurplus } from '../premium/surplus-refunds.js';
import { registerPriceNoticeJobs } from '../prices/price-notices.js';
import { booksJobKind } from './books-store.js';
import { runRenewalStep } from './renewal.js';
import { remindRenewal } from './renewal-reminder.js';

/** A checkout younger than this is left to its shopper's return before it is checked. */
const RECONCILE_AFTER_MS = 30_000;

/**
 * The billing lifecycle's work on the job queue (product.md §12), in the order a run takes it:
 * reminders 3 days before the end, renewal steps (charge, retries, lapse), reconciliation of
 * invoices whose shopper never came back, and redelivery of messages a provider refused.
 */
export function billingJobKinds(deps: Deps): JobKind[] {
  const { db } = deps;
  return [
    {
      name: 'billing.remind',
      findDue: async (now, limit, after) => {
        let query = db
          .selectFrom('subscriptions')
          .select('id')
          .where('next_billing_at', 'is not', null)
          .where('is_auto_renew', '=', true)
          .where('end_date', '>', now)
          .where('end_date', '<=', new Date(now.getTime() + REMINDER_DAYS_BEFORE * DAY_MS))
          .where((eb) =>
            eb.or([eb('reminded_for', 'is', null), eb('reminded_for', '<>', eb.ref('end_date'))]),
          )
          .orderBy('id')
          .limit(limit);
        if (after) query = query.where('id', '>', after);
        return (await query.execute()).map((row) => row.id);
      },
      run: (key, log) => remindRenewal(deps, key, log),
    },
    {
      name: 'billing.renew',
      findDue: async (now, limit, after) => {
        let query = db
          .selectFrom('subscriptions')
          .select('id')
          .where('next_billing_at', '<=', now)
          .orderBy('id')
          .limit(limit);
        if (after) query = query.where('id', '>', after);
        return (await query.execute()).map((row) => row.id);
      },
      run: (key, log) => runRenewalStep(deps, key, log),
    },
    {
      name: 'payments.reconcile',
      findDue: async (now, limit, after) => {
        // Card sessions and QPay invoices alike (settlement asks whichever the invoice has).
        let query = openProviderInvoices(db)
          .where('i.created_at', '<=', new Date(now.getTime() - RECONCILE_AFTER_MS))
          .orderBy('i.invoice_id')
          .limit(limit);
        if (after) query = query.where('i.invoice_id', '>', after);
        return (await query.execute()).map((row) => row.invoice_id);
      },
      run: (key) => settleInvoice(deps, key, 'check'),
    },
    {
      // A closed invoice whose page is still open at a provider (one was down when it closed,
      // or the account was deleted): the page is closed, and what it took is given back.
      name: 'payments.close-attempts',
      findDue: async (_now, limit, after) => {
        let query = invoicesWithOpenAttempts(db).orderBy('i.invoice_id').limit(limit);
        if (after) query = query.where('i.invoice_id', '>', after);
        return (await query.execute()).map((row) => row.invoice_id);
      },
      run: (key) => settleInvoice(deps, key, 'check'),
    },
    {
      name: 'outbox.deliver',
      findDue: async (now, limit, after) =>
        (await dueRedeliveries(deps, now, limit, after)).map((row) => row.id),
      run: (key, log) => redeliver(deps, key, log),
    },
  ];
}

/** Registers the billing work on a queue; periods that nothing renews lapse in the scan. */
export function registerBillingJobs(queue: JobQueue, deps: Deps): void {
  // A price rise's messages first, so its reminder goes before a renewal in the same run.
  registerPriceNoticeJobs(queue, deps);
  for (const kind of billingJobKinds(deps)) queue.register(kind);
  // Last, so a run checks the books after the payments it settled.
  queue.register(booksJobKind(deps));
  queue.beforeScan(() => lapseUnpaidRenewals(deps));
  // Surplus captures a provider could not refund at once are given back before the scan.
  queue.beforeScan(() => refundOpenSurplus(deps));
}
