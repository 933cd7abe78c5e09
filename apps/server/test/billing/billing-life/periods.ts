import { addMonths } from '../../../src/modules/premium/period.js';
import { resumptionsAfter } from './pause-invariants.js';
import type { Books } from './snapshot.js';

/** An invoice that was paid once, whatever was refunded of it since. */
const SETTLED_PAID = new Set(['paid', 'partly_refunded', 'refunded']);

type Invoice = Books['invoices'][number];
type Period = Books['subscriptions'][number];

const iso = (date: Date | null) => date?.toISOString() ?? 'none';

/**
 * 3 (periods). Every period given was paid for, once, and runs as long as what was paid:
 * - each subscription row was started by one paid purchase of its owner, or by a renewal paid
 *   after its period had passed (activation-once.ts `startPeriod`);
 * - each paid purchase started exactly one row; each paid renewal either extended its row or
 *   started one of its own, never both, never neither;
 * - a row ends where its first period plus its renewals end, back to back (a renewal's
 *   `period_start` is the end it extended, or the resumption of a pause that began there), unless
 *   the invoice that paid its latest period was refunded whole: then it has ended by the refund and renews no more (console/refunds.ts; a
 *   refund of an earlier period or of an upgrade's difference leaves the row alone);
 * - a row's plan is that of the last invoice applied to it (a purchase, a renewal, an upgrade),
 *   refunded or not;
 * - a purchase or a renewal costs its plan's price; an upgrade less than its new plan's.
 */
export function periodViolations(books: Books): string[] {
  const found: string[] = [];
  const byId = new Map(books.invoices.map((invoice) => [invoice.invoice_id, invoice]));
  const startedBy = new Map<string, Period[]>();
  for (const period of books.subscriptions) {
    if (!period.invoice_id) {
      found.push(`3. period ${period.id} was started by no invoice`);
      continue;
    }
    startedBy.set(period.invoice_id, [...(startedBy.get(period.invoice_id) ?? []), period]);
    const origin = byId.get(period.invoice_id);
    if (
      !origin ||
      origin.user_id !== period.owner_id ||
      !SETTLED_PAID.has(origin.status) ||
      (origin.kind !== 'purchase' && origin.kind !== 'renewal')
    ) {
      found.push(
        `3. period ${period.id} was started by ${period.invoice_id}, not a paid purchase of its owner`,
      );
    }
  }
  for (const invoice of books.invoices) {
    const price = books.prices.get(invoice.package_id) ?? Number.NaN;
    const priced =
      invoice.kind === 'change' ? invoice.amount >= 0 && invoice.amount < price : invoice.amount === price;
    if (!priced)
      found.push(`3. ${invoice.kind} ${invoice.invoice_id} costs ${invoice.amount}; its plan ${price}`);
    if (!SETTLED_PAID.has(invoice.status)) continue;
    const rows = startedBy.get(invoice.invoice_id) ?? [];
    if (invoice.kind === 'purchase' && rows.length !== 1) {
      found.push(`3. paid purchase ${invoice.invoice_id} started ${rows.length} periods`);
    }
    if (invoice.kind === 'renewal') {
      const extended =
        rows.length === 0 && books.subscriptions.some((each) => each.id === invoice.subscription_id);
      if (rows.length + (extended ? 1 : 0) !== 1) {
        found.push(
          `3. paid renewal ${invoice.invoice_id} started ${rows.length} periods and extended ${extended ? 1 : 0}`,
        );
      }
    }
  }
  for (const period of books.subscriptions) found.push(...periodRuns(books, period, startedBy));
  return found;
}

/** One row: its length is what was paid for it, and its plan the last one applied. */
function periodRuns(books: Books, period: Period, startedBy: Map<string, Period[]>): string[] {
  const origin = books.invoices.find((invoice) => invoice.invoice_id === period.invoice_id);
  if (!origin) return [];
  const linked = books.invoices.filter(
    (invoice) =>
      invoice.subscription_id === period.id &&
      invoice.invoice_id !== origin.invoice_id &&
      SETTLED_PAID.has(invoice.status) &&
      !startedBy.has(invoice.invoice_id),
  );
  const renewals = linked
    .filter((invoice) => invoice.kind === 'renewal')
    .sort((a, b) => (a.period_start?.getTime() ?? 0) - (b.period_start?.getTime() ?? 0));
  const name = `3. period ${period.id} (${iso(period.start_date)} – ${iso(period.end_date)})`;

  // The invoice that paid the latest period: refunded whole, it ended the subscription.
  const latest = renewals.at(-1) ?? origin;
  if (latest.status === 'refunded') {
    const refundedAt = Math.max(
      ...books.ledger
        .filter((row) => row.invoice_id === latest.invoice_id && row.entry === 'refund')
        .map((row) => row.created_at.getTime()),
    );
    if (period.end_date.getTime() > refundedAt || period.is_auto_renew || period.next_billing_at) {
      return [
        `${name}: ${latest.invoice_id} paid its latest period and was refunded whole, yet it runs on or renews`,
      ];
    }
    return [];
  }
  const found: string[] = [];
  let end = addMonths(period.start_date, books.durations.get(origin.package_id) ?? 1);
  // A pause leaves a gap: the period after it starts at its resumption (or an early resume).
  const startsAfter = (at: Date) => [at.getTime(), ...resumptionsAfter(books, period.id, at)];
  for (const renewal of renewals) {
    if (!startsAfter(end).includes(renewal.period_start?.getTime() ?? Number.NaN)) {
      found.push(
        `${name}: renewal ${renewal.invoice_id} starts ${iso(renewal.period_start)}, not at ${iso(end)}`,
      );
    }
    end = renewal.period_end ?? end;
  }
  // At a resumption the period's boundary moves there before the charge is made (pause-schedule.ts).
  if (!startsAfter(end).includes(period.end_date.getTime())) {
    found.push(`${name}: paid to ${iso(end)} (${renewals.length} renewals), ends ${iso(period.end_date)}`);
  }
  // A refund takes back money, not the plan an invoice applied.
  const last = lastApplied([origin, ...linked]);
  if (!last.some((invoice) => invoice.package_id === period.package_id)) {
    found.push(
      `${name}: on plan ${period.package_id}, the last invoice applied was for ${last[0]?.package_id}`,
    );
  }
  return found;
}

/** The invoices applied last (several when settled at the same instant). */
function lastApplied(invoices: Invoice[]): Invoice[] {
  const latest = Math.max(...invoices.map((invoice) => invoice.settled_at?.getTime() ?? 0));
  return invoices.filter((invoice) => (invoice.settled_at?.getTime() ?? 0) === latest);
}
