import type { PaymentMethod } from '@tunes/shared/billing';
import { type Kysely, type QueryCreator, sql } from 'kysely';
import { prepared } from '../../db/prepared.js';
import type { Database } from '../../db/schema.js';
import type { Deps } from '../../deps.js';
import { payments } from '../../lib/metrics.js';
import { receiptRequestOfPaid } from '../ebarimt/receipt-requests.js';
import { offerPeriodPaid } from '../offers/redemption.js';
import { addMonths } from './period.js';
import type { LedgerMethod } from './tables.js';
import './tables.js';

/** What the capture that pays an invoice writes on it: its method and card (null: as it was). */
export type PaidWith = {
  method: PaymentMethod | null;
  cardBrand: string | null;
  cardLast4: string | null;
};

const ASIS: PaidWith = { method: null, cardBrand: null, cardLast4: null };

type MarkPaidArgs = { invoiceId: string; now: Date } & PaidWith;

/** The update that marks an invoice paid, once (it matches only while the invoice is `created`). */
const paidUpdate = (db: QueryCreator<Database>, args: MarkPaidArgs) =>
  db
    .updateTable('payment_invoices')
    .set({
      status: 'paid',
      settled_at: args.now,
      method: sql<PaymentMethod>`coalesce(${args.method}, method)`,
      card_brand: sql<string | null>`coalesce(${args.cardBrand}, card_brand)`,
      card_last4: sql<string | null>`coalesce(${args.cardLast4}, card_last4)`,
    })
    .where('invoice_id', '=', args.invoiceId)
    .where('status', '=', 'created')
    .returning([
      'invoice_id',
      'user_id',
      'package_id',
      'kind',
      'method',
      'subscription_id',
      'period_start',
      'period_end',
      'ebarimt_registry',
      'ebarimt_tin',
      'ebarimt_company',
      'offer_redemption_id',
    ]);
type PaidRow = Awaited<ReturnType<ReturnType<typeof paidUpdate>['execute']>>[number];

/**
 * What the statement that marks an invoice paid goes on to do with the `paid` row: it asks for
 * the invoice's e-barimt (`receiptRequestOfPaid`: every paid invoice gets one, and the job queue
 * issues it) and reads what a purchase's period is made of (the plan's months, the end of the
 * access the buyer has). Kysely's CTE types are invariant, so a statement with more CTEs than
 * `paid` (the capture's ledger row) is widened to these alone: it holds them, and no more is read.
 */
const paidFacts = <DB extends Database & { paid: PaidRow }>(db: QueryCreator<DB>, now: Date) =>
  (db as unknown as QueryCreator<Database & { paid: PaidRow }>)
    .with('receipt', (cte) => receiptRequestOfPaid(cte, now))
    .selectFrom('paid')
    .leftJoin('packages as p', 'p.id', 'paid.package_id')
    .selectAll('paid')
    .select('p.duration_months')
    .select(
      // A second paid invoice (two tabs) extends access instead of overlapping the first period.
      sql<Date | null>`case when paid.kind = 'purchase' then (
        select max(s.end_date) from subscriptions s where s.owner_id = paid.user_id and s.end_date > ${now}
      ) end`.as('current_end'),
    );

/**
 * Marks an invoice paid, once: answers its facts only to the call that changed it. The same
 * statement writes the method and card that paid it (a renewal link paid by QPay: the receipt
 * names the method), asks for its e-barimt and reads what a purchase's period is made of: one
 * round trip where there were four.
 */
const markPaid = prepared((db: Kysely<Database>, args: MarkPaidArgs) =>
  paidFacts(
    db.with('paid', (cte) => paidUpdate(cte, args)),
    args.now,
  ),
);

/** The capture that pays an invoice, as its ledger row records it. */
export interface PayingCapture {
  subscriptionId: string | null;
  method: LedgerMethod;
  reference: string;
  amount: number;
  currency: string;
}

/** A capture as `prepared` arguments (each one a value of the statement). */
type CaptureArgs = {
  captureSubscriptionId: string | null;
  captureMethod: LedgerMethod;
  captureReference: string;
  captureAmount: number;
  captureCurrency: string;
};

/**
 * `markPaid` for a provider's capture, which also writes the capture's ledger row (applied): one
 * round trip for both. The invoice is marked paid only if the ledger does not hold that capture
 * yet (its key: invoice, method, reference), so the same report again writes nothing and
 * answers no row; the caller holds the invoice's row lock, so no other capture of it runs meanwhile.
 */
const markCapturedPaid = prepared((db: Kysely<Database>, args: MarkPaidArgs & CaptureArgs) =>
  paidFacts(
    db
      .with('paid', (cte) =>
        paidUpdate(cte, args).where((eb) =>
          eb.not(
            eb.exists(
              eb
                .selectFrom('payment_ledger as l')
                .select('l.id')
                .where('l.invoice_id', '=', args.invoiceId)
                .where('l.entry', '=', 'capture')
                .where('l.method', '=', args.captureMethod)
                .where('l.reference', '=', args.captureReference),
            ),
          ),
        ),
      )
      .with('captured', (cte) =>
        cte
          .insertInto('payment_ledger')
          .columns([
            'invoice_id',
            'subscription_id',
            'entry',
            'method',
            'reference',
            'amount',
            'currency',
            'outcome',
            'created_at',
          ])
          .expression((eb) =>
            eb
              .selectFrom('paid')
              .select([
                'paid.invoice_id',
                sql<string | null>`${args.captureSubscriptionId}::uuid`.as('subscription_id'),
                sql<'capture'>`'capture'`.as('entry'),
                sql<LedgerMethod>`${args.captureMethod}`.as('method'),
                sql<string>`${args.captureReference}`.as('reference'),
                sql<number>`${args.captureAmount}::integer`.as('amount'),
                sql<string>`${args.captureCurrency}`.as('currency'),
                sql<'applied'>`'applied'`.as('outcome'),
                sql<Date>`${args.now}::timestamptz`.as('created_at'),
              ]),
          ),
      ),
    args.now,
  ),
);

type MarkedPaid = Awaited<ReturnType<typeof markPaid>>[number];

/** The subscription a paid invoice applied to, and the end of its period as the profile shows it. */
export interface PaidPeriod {
  subscriptionId: string;
  until: Date;
}

/**
 * Exactly-once activation (product.md §10): any number of returns, callbacks, checks and charge
 * answers of one invoice, in any order and at once, apply it once. The invoice moves to `paid`
 * in the same transaction that applies it; the UPDATE only matches an unpaid invoice (concurrent
 * callers wait on the row lock, then match nothing); and for a purchase
 * `subscriptions.invoice_id` is unique as the last guard. What is applied depends on the kind:
 * a purchase starts a period, a renewal extends its subscription by one period, a change moves
 * the subscription to the bought plan; and its e-barimt is asked for (ebarimt/receipt-once.ts).
 * Answers the subscription id, or null when the invoice was already applied. Proven by test/premium/activation-once.test.ts and test/billing/*.
 */
export async function activateInvoice(
  deps: Pick<Deps, 'db' | 'clock'>,
  invoiceId: string,
): Promise<string | null> {
  const now = deps.clock.now();
  const period = await deps.db.transaction().execute((trx) => applyPaidInvoice(trx, invoiceId, now));
  return period?.subscriptionId ?? null;
}

/**
 * The body of `activateInvoice` inside the caller's transaction (capture-once.ts records the
 * capture in the same one): marks the invoice paid and applies it, or answers null when it was
 * already applied.
 */
export async function applyPaidInvoice(
  trx: Kysely<Database>,
  invoiceId: string,
  now: Date,
  paidWith: PaidWith = ASIS,
): Promise<PaidPeriod | null> {
  const [invoice] = await markPaid(trx, { invoiceId, now, ...paidWith });
  return invoice ? applyMarked(trx, invoiceId, invoice, now) : null;
}

/**
 * `applyPaidInvoice` for a provider's capture of an invoice that is `created` and locked by the
 * caller (capture-decision.ts): the capture's ledger row is written by the statement that marks
 * the invoice paid. Answers null when the ledger had that capture already (nothing was written:
 * under the caller's lock the invoice is still `created`, so only the ledger's key can stop it).
 */
export async function applyCapture(
  trx: Kysely<Database>,
  invoiceId: string,
  now: Date,
  capture: PayingCapture,
  paidWith: PaidWith,
): Promise<{ period: PaidPeriod | null } | null> {
  const [invoice] = await markCapturedPaid(trx, {
    invoiceId,
    now,
    ...paidWith,
    captureSubscriptionId: capture.subscriptionId,
    captureMethod: capture.method,
    captureReference: capture.reference,
    captureAmount: capture.amount,
    captureCurrency: capture.currency,
  });
  return invoice ? { period: await applyMarked(trx, invoiceId, invoice, now) } : null;
}

/** A paid invoice's effect: its period (by kind), and a period of its offer used. */
async function applyMarked(
  trx: Kysely<Database>,
  invoiceId: string,
  invoice: MarkedPaid,
  now: Date,
): Promise<PaidPeriod | null> {
  payments.inc({ method: invoice.method, kind: invoice.kind, outcome: 'paid' });
  const period = await applyInvoice(trx, invoiceId, invoice, now);
  // Priced with an offer: the redemption is the subscription's, and a period of it is used.
  if (invoice.offer_redemption_id && period) {
    await offerPeriodPaid(trx, {
      redemptionId: invoice.offer_redemption_id,
      subscriptionId: period.subscriptionId,
      kind: invoice.kind,
      now,
    });
  }
  return period;
}

/** What a paid invoice of each kind does to its subscription; answers the subscription's period. */
async function applyInvoice(
  trx: Kysely<Database>,
  invoiceId: string,
  invoice: MarkedPaid,
  now: Date,
): Promise<PaidPeriod | null> {
  if (invoice.kind === 'renewal' && invoice.subscription_id && invoice.period_start && invoice.period_end) {
    const renewed = await renewSubscription(trx, {
      subscriptionId: invoice.subscription_id,
      packageId: invoice.package_id,
      periodStart: invoice.period_start,
      periodEnd: invoice.period_end,
      now,
    });
    // A renewal paid after its period was replaced (a late link) buys a period of its own.
    if (renewed) return { subscriptionId: renewed, until: invoice.period_end };
  }
  if (invoice.kind === 'change' && invoice.subscription_id && invoice.period_end) {
    // A change belongs to its period: it applies only while that period is the current one
    // (capture-once.ts refunds a change paid later, so this guard is the last line).
    const changed = await trx
      .updateTable('subscriptions')
      .set({ package_id: invoice.package_id, next_package_id: null, updated_at: now })
      .where('id', '=', invoice.subscription_id)
      .where('end_date', '=', invoice.period_end)
      .returning('id')
      .executeTakeFirst();
    if (changed) return { subscriptionId: changed.id, until: invoice.period_end };
    throw new Error(`plan change ${invoiceId} applied outside its period`);
  }
  return startPeriod(trx, invoiceId, invoice, now);
}

/**
 * A purchase: a new period from now, or from the end of the access the buyer already has (read
 * by `markPaid`). The period and the invoice's link to it are one statement.
 */
async function startPeriod(
  trx: Kysely<Database>,
  invoiceId: string,
  invoice: Pick<MarkedPaid, 'user_id' | 'package_id' | 'duration_months' | 'current_end'>,
  now: Date,
): Promise<PaidPeriod | null> {
  if (invoice.duration_months === null) throw new Error(`invoice ${invoiceId} has no plan`);
  const currentEnd = invoice.current_end ? new Date(invoice.current_end) : null;
  const start = currentEnd && currentEnd > now ? currentEnd : now;
  const end = addMonths(start, invoice.duration_months);
  const { rows } = await sql<{ id: string }>`
    with started as (
      insert into subscriptions
        (owner_id, package_id, start_date, end_date, is_auto_renew, source_type, invoice_id, next_billing_at)
      values (${invoice.user_id}, ${invoice.package_id}, ${start}, ${end}, true, 'Web', ${invoiceId}, ${end})
      on conflict (invoice_id) do nothing
      returning id
    ), linked as (
      update payment_invoices set subscription_id = (select id from started)
      where invoice_id = ${invoiceId} and exists (select 1 from started)
    )
    select id from started`.execute(trx);
  const started = rows[0];
  return started ? { subscriptionId: started.id, until: end } : null;
}

/**
 * A renewal: the subscription whose period ends at `periodStart` runs to `periodEnd` on the
 * invoice's plan (a waiting downgrade takes effect here), with its retries cleared; and after a
 * downgrade the newest members beyond the new plan's seats leave (they were told at the change).
 * One statement: the renewal run pays one round trip for both.
 */
async function renewSubscription(
  trx: Kysely<Database>,
  renewal: { subscriptionId: string; packageId: number; periodStart: Date; periodEnd: Date; now: Date },
): Promise<string | null> {
  const { rows } = await sql<{ id: string }>`
    with renewed as (
      update subscriptions
      set end_date = ${renewal.periodEnd}, package_id = ${renewal.packageId}, next_package_id = null,
          next_billing_at = ${renewal.periodEnd}, renewal_attempts = 0, grace_until = null,
          is_auto_renew = true, cancelled_at = null, updated_at = ${renewal.now}
      where id = ${renewal.subscriptionId} and end_date = ${renewal.periodStart}
      returning id, package_id
    ), trimmed as (
      delete from subscription_members
      where subscription_id in (select id from renewed)
        and user_id in (
          select user_id from subscription_members
          where subscription_id = ${renewal.subscriptionId}
          order by joined_at, user_id
          offset (
            select case when p.allow_share then p.max_shared_users else 0 end
            from renewed r join packages p on p.id = r.package_id
          )
        )
    )
    select id from renewed`.execute(trx);
  return rows[0]?.id ?? null;
}
