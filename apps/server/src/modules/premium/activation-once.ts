import { type Kysely, sql } from 'kysely';
import { prepared } from '../../db/prepared.js';
import type { Database } from '../../db/schema.js';
import type { Deps } from '../../deps.js';
import { payments } from '../../lib/metrics.js';
import { receiptRequestOfPaid } from '../ebarimt/receipt-requests.js';
import { addMonths } from './period.js';
import './tables.js';

/**
 * Marks an invoice paid, once: answers its facts only to the call that changed it. The same
 * statement asks for its e-barimt (`receiptRequestOfPaid`): every paid invoice gets one, and
 * the job queue issues it.
 */
const markPaid = prepared((db: Kysely<Database>, args: { invoiceId: string; now: Date }) =>
  db
    .with('paid', (cte) =>
      cte
        .updateTable('payment_invoices')
        .set({ status: 'paid', settled_at: args.now })
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
        ]),
    )
    .with('receipt', (cte) => receiptRequestOfPaid(cte, args.now))
    .selectFrom('paid')
    .selectAll(),
);

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
  return deps.db.transaction().execute((trx) => applyPaidInvoice(trx, invoiceId, now));
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
): Promise<string | null> {
  const [invoice] = await markPaid(trx, { invoiceId, now });
  if (!invoice) return null;
  payments.inc({ method: invoice.method, kind: invoice.kind, outcome: 'paid' });

  if (invoice.kind === 'renewal' && invoice.subscription_id && invoice.period_start && invoice.period_end) {
    const renewed = await renewSubscription(trx, {
      subscriptionId: invoice.subscription_id,
      packageId: invoice.package_id,
      periodStart: invoice.period_start,
      periodEnd: invoice.period_end,
      now,
    });
    // A renewal paid after its period was replaced (a late link) buys a period of its own.
    if (renewed) return renewed;
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
    if (changed) return changed.id;
    throw new Error(`plan change ${invoiceId} applied outside its period`);
  }
  return startPeriod(trx, invoiceId, invoice.user_id, invoice.package_id, now);
}

/** A purchase: a new period from now, or from the end of the access the buyer already has. */
async function startPeriod(
  trx: Kysely<Database>,
  invoiceId: string,
  userId: string,
  packageId: number,
  now: Date,
): Promise<string | null> {
  const plan = await trx
    .selectFrom('packages')
    .select('duration_months')
    .where('id', '=', packageId)
    .executeTakeFirstOrThrow();
  // A second paid invoice (two tabs) extends access instead of overlapping the first period.
  const current = await trx
    .selectFrom('subscriptions')
    .select((eb) => eb.fn.max('end_date').as('end_date'))
    .where('owner_id', '=', userId)
    .where('end_date', '>', now)
    .executeTakeFirst();
  const currentEnd = current?.end_date ? new Date(current.end_date) : null;
  const start = currentEnd && currentEnd > now ? currentEnd : now;
  const end = addMonths(start, plan.duration_months);

  const subscription = await trx
    .insertInto('subscriptions')
    .values({
      owner_id: userId,
      package_id: packageId,
      start_date: start,
      end_date: end,
      is_auto_renew: true,
      source_type: 'Web',
      invoice_id: invoiceId,
      next_billing_at: end,
    })
    .onConflict((oc) => oc.column('invoice_id').doNothing())
    .returning('id')
    .executeTakeFirst();
  if (!subscription) return null;
  await trx
    .updateTable('payment_invoices')
    .set({ subscription_id: subscription.id })
    .where('invoice_id', '=', invoiceId)
    .execute();
  return subscription.id;
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
