import type { BooksMismatch } from '@tunes/shared/books-codes';
import { type Kysely, type RawBuilder, sql } from 'kysely';
import type { Database } from '../../db/schema.js';
import '../premium/tables.js';

/**
 * The parts of the books check the database answers alone (books-check.ts): the ledger against
 * the invoices, each capture against its refunds, and the ledger against the periods. Each is
 * one set-based query that answers only what is wrong, at most `limit` rows (and whether there
 * were more).
 */

const UNPAID_STATUSES = ['created', 'declined', 'cancelled', 'failed', 'expired'];

/** At most `limit` rows of a query asked for `limit + 1`, and whether there were more. */
function capped<T>(rows: T[], limit: number) {
  return { rows: rows.slice(0, limit), more: rows.length > limit };
}

const money = (amount: number, currency: string) => `${amount} ${currency}`;

/**
 * What a check looks at: everything (null), or the invoices, periods and ledger rows that changed
 * since the last one (books-changes.ts). Each query is then a few index lookups per item.
 */
export interface BooksScope {
  invoices: string[];
  subscriptions: string[];
  ledger: string[];
}

const within = (scope: BooksScope | null, column: RawBuilder<unknown>, ids: keyof BooksScope) => {
  if (!scope) return sql`true`;
  const type = { invoices: sql`text[]`, subscriptions: sql`uuid[]`, ledger: sql`bigint[]` }[ids];
  return sql`${column} = any(cast(${scope[ids]} as ${type}))`;
};

/** Invoices made, settled or given a ledger row since `since` (an invoice id column's filter). */
function touchedSince(column: RawBuilder<unknown>, since: Date | null): RawBuilder<unknown> {
  if (!since) return sql`true`;
  return sql`(${column} in (select invoice_id from payment_invoices where created_at >= ${since} or settled_at >= ${since})
    or ${column} in (select invoice_id from payment_ledger where created_at >= ${since} and invoice_id is not null))`;
}

interface InvoiceTotals {
  invoice_id: string;
  status: string;
  amount: number;
  currency: string;
  applied_count: number;
  applied: number;
  refunded: number;
}

/**
 * 1. The ledger against the invoices: a paid invoice has applied captures of exactly its amount
 * and no refund; a refunded one all of them given back, a partly refunded one some; an unpaid
 * one none; and no invoice two applied captures.
 */
export async function ledgerAgainstInvoices(
  db: Kysely<Database>,
  since: Date | null,
  limit: number,
  scope: BooksScope | null = null,
) {
  const { rows } = await sql<InvoiceTotals>`
    with captures as (
      select c.invoice_id, c.outcome, c.amount,
        coalesce((select sum(r.amount) from payment_ledger r where r.refund_of = c.id and r.entry = 'refund'), 0) as refunded
      from payment_ledger c
      where c.entry = 'capture' and c.invoice_id is not null and ${within(scope, sql.ref('c.invoice_id'), 'invoices')}
    ), totals as (
      select invoice_id,
        count(*) filter (where outcome = 'applied') as applied_count,
        coalesce(sum(amount) filter (where outcome = 'applied'), 0) as applied,
        coalesce(sum(refunded) filter (where outcome = 'applied'), 0) as refunded
      from captures group by invoice_id
    )
    select i.invoice_id, i.status, i.amount, i.currency,
      coalesce(t.applied_count, 0) as applied_count, coalesce(t.applied, 0) as applied,
      coalesce(t.refunded, 0) as refunded
    from payment_invoices i left join totals t on t.invoice_id = i.invoice_id
    where (
      coalesce(t.applied_count, 0) > 1
      or (i.status = 'paid' and (coalesce(t.applied, 0) <> i.amount or coalesce(t.refunded, 0) > 0))
      or (i.status in ('refunded', 'partly_refunded') and (
        coalesce(t.applied, 0) <> i.amount or coalesce(t.applied, 0) = 0
        or (i.status = 'refunded' and t.refunded <> t.applied)
        or (i.status = 'partly_refunded' and (t.refunded <= 0 or t.refunded >= t.applied))))
      or (i.status in (${sql.join(UNPAID_STATUSES)}) and coalesce(t.applied_count, 0) > 0)
    ) and ${touchedSince(sql.ref('i.invoice_id'), since)} and ${within(scope, sql.ref('i.invoice_id'), 'invoices')}
    order by i.invoice_id
    limit ${limit + 1}`.execute(db);
  const found = capped(rows, limit);
  return { rows: found.rows.flatMap(invoiceMismatches), more: found.more };
}

function invoiceMismatches(row: InvoiceTotals): BooksMismatch[] {
  const [count, applied, refunded] = [row.applied_count, row.applied, row.refunded].map(Number) as [
    number,
    number,
    number,
  ];
  const invoiceId = row.invoice_id;
  const price = money(row.amount, row.currency);
  const found: BooksMismatch[] = [];
  const add = (kind: BooksMismatch['kind'], detail: string) => found.push({ kind, invoiceId, detail });
  if (count > 1)
    add('two_applied_captures', `${count} applied captures of ${money(applied, row.currency)} in all`);
  if (UNPAID_STATUSES.includes(row.status)) {
    if (count > 0) {
      add(
        'capture_on_unpaid_invoice',
        `${row.status}, but an applied capture of ${money(applied, row.currency)} is in the ledger`,
      );
    }
    return found;
  }
  if (row.status === 'paid' && applied === 0 && row.amount > 0) {
    add('paid_without_capture', `paid for ${price}, but the ledger holds no applied capture`);
  } else if (applied !== row.amount || (row.status !== 'paid' && applied === 0)) {
    add(
      'capture_total_differs',
      `${row.status} for ${price}; its applied captures took ${money(applied, row.currency)}`,
    );
  }
  if (row.status === 'paid' && refunded > 0) {
    add('refund_status_differs', `paid, but ${money(refunded, row.currency)} of it was refunded`);
  }
  if (row.status === 'refunded' && applied > 0 && refunded !== applied) {
    add(
      'refund_status_differs',
      `refunded, but ${money(refunded, row.currency)} of ${money(applied, row.currency)} was given back`,
    );
  }
  if (row.status === 'partly_refunded' && applied > 0 && (refunded <= 0 || refunded >= applied)) {
    add(
      'refund_status_differs',
      `partly refunded, but ${money(refunded, row.currency)} of ${money(applied, row.currency)} was given back`,
    );
  }
  return found;
}

/**
 * 1b. Each capture against its refunds: none gives back more than it took; a surplus capture is
 * given back whole once it is older than the grace period; every refund names a capture of its
 * invoice. Always the whole ledger (a surplus left open must not age out of a recent check).
 */
export async function capturesNotBalanced(
  db: Kysely<Database>,
  cutoff: Date,
  limit: number,
  scope: BooksScope | null = null,
) {
  // A surplus awaiting its refund turns into a mismatch by the clock alone: always looked at
  // (the surplus captures are few, and found by their own index).
  const captures = scope
    ? sql`(c.outcome = 'surplus' or ${within(scope, sql.ref('c.invoice_id'), 'invoices')} or ${within(scope, sql.ref('c.id'), 'ledger')})`
    : sql`true`;
  const refunds = scope
    ? sql`(${within(scope, sql.ref('r.invoice_id'), 'invoices')} or ${within(scope, sql.ref('r.id'), 'ledger')})`
    : sql`true`;
  const { rows } = await sql<{
    kind: 'over_refunded' | 'surplus_not_refunded' | 'refund_without_capture';
    id: string;
    invoice_id: string | null;
    reference: string;
    amount: number;
    currency: string;
    refunded: number;
  }>`
    with captures as (
      select c.id, c.invoice_id, c.reference, c.outcome, c.amount, c.currency, c.created_at,
        coalesce((select sum(r.amount) from payment_ledger r where r.refund_of = c.id and r.entry = 'refund'), 0) as refunded
      from payment_ledger c
      where c.entry = 'capture' and ${captures}
    )
    select case when refunded > amount then 'over_refunded' else 'surplus_not_refunded' end as kind,
      id, invoice_id, reference, amount, currency, refunded
    from captures
    where refunded > amount or (outcome = 'surplus' and refunded < amount and created_at <= ${cutoff})
    union all
    select 'refund_without_capture', r.id, r.invoice_id, r.reference, r.amount, r.currency, 0
    from payment_ledger r left join payment_ledger c on c.id = r.refund_of
    where r.entry = 'refund' and ${refunds}
      and (c.id is null or c.entry <> 'capture' or c.invoice_id is distinct from r.invoice_id)
    order by 2
    limit ${limit + 1}`.execute(db);
  const found = capped(rows, limit);
  return {
    more: found.more,
    rows: found.rows.map((row): BooksMismatch => {
      const took = money(row.amount, row.currency);
      const back = money(Number(row.refunded), row.currency);
      const detail = {
        over_refunded: `capture ${row.reference} (ledger ${row.id}) took ${took}, but ${back} was refunded`,
        surplus_not_refunded: `surplus capture ${row.reference} (ledger ${row.id}) of ${took}: ${back} refunded so far`,
        refund_without_capture: `refund ${row.reference} (ledger ${row.id}) of ${took} names no capture of its invoice`,
      }[row.kind];
      return { kind: row.kind, ...(row.invoice_id ? { invoiceId: row.invoice_id } : {}), detail };
    }),
  };
}

/**
 * An invoice `i` that backs a period: a purchase, renewal or change that kept money (its applied
 * captures less their refunds), or a plan change that cost nothing.
 */
const backsAPeriod = sql`i.kind in ('purchase', 'renewal', 'change')
  and ((i.kind = 'change' and i.amount = 0 and i.status = 'paid')
    or (select coalesce(sum(case when l.entry = 'capture' then l.amount else -l.amount end), 0)
        from payment_ledger l left join payment_ledger c on c.id = l.refund_of
        where l.invoice_id = i.invoice_id
          and ((l.entry = 'capture' and l.outcome = 'applied') or (l.entry = 'refund' and c.outcome = 'applied'))) > 0)`;

/**
 * 3. The ledger against the periods: a Web period that gives access now is backed by an
 * invoice of it that kept money (applied captures less their refunds), by a voucher or an
 * extension in the ledger, or by a plan change that cost nothing; and every invoice an applied
 * capture paid led to a period (a subscription names it, or it names one).
 */
export async function periodsAgainstLedger(
  db: Kysely<Database>,
  now: Date,
  limit: number,
  scope: BooksScope | null = null,
) {
  // Each period asks its own invoices and grants by index: linear in the periods looked at.
  const unbacked = await sql<{ id: string; owner_id: string; end_date: Date }>`
    select s.id, s.owner_id, s.end_date from subscriptions s
    where s.source_type = 'Web' and s.end_date > ${now} and ${within(scope, sql.ref('s.id'), 'subscriptions')}
      and not exists (select 1 from payment_invoices i where i.subscription_id = s.id and ${backsAPeriod})
      and not exists (select 1 from payment_invoices i where i.invoice_id = s.invoice_id and ${backsAPeriod})
      and not exists (select 1 from payment_ledger g
        where g.subscription_id = s.id and g.entry = 'capture' and g.method in ('voucher', 'extension'))
    order by s.id
    limit ${limit + 1}`.execute(db);
  const withoutPeriod = await sql<{ invoice_id: string; kind: string; amount: number; currency: string }>`
    select i.invoice_id, i.kind, i.amount, i.currency from payment_invoices i
    where i.subscription_id is null and ${within(scope, sql.ref('i.invoice_id'), 'invoices')}
      and exists (select 1 from payment_ledger c
        where c.invoice_id = i.invoice_id and c.entry = 'capture' and c.outcome = 'applied')
      and not exists (select 1 from subscriptions s where s.invoice_id = i.invoice_id)
    order by i.invoice_id
    limit ${limit + 1}`.execute(db);
  const periods = capped(unbacked.rows, limit);
  const invoices = capped(withoutPeriod.rows, limit);
  return {
    more: periods.more || invoices.more,
    rows: [
      ...periods.rows.map(
        (row): BooksMismatch => ({
          kind: 'access_without_payment',
          subscriptionId: row.id,
          detail: `a Web period of user ${row.owner_id} gives access until ${new Date(row.end_date).toISOString()}, but no paid invoice, voucher or extension backs it`,
        }),
      ),
      ...invoices.rows.map(
        (row): BooksMismatch => ({
          kind: 'capture_without_period',
          invoiceId: row.invoice_id,
          detail: `a ${row.kind} paid ${money(row.amount, row.currency)} by an applied capture, but no period came of it`,
        }),
      ),
    ],
  };
}
