import type { InvoiceStatus } from '@tunes/shared/premium-rules';
import type { PaymentContext } from './context.js';
import { GatewayError } from './gateway.js';
import { findInvoiceParty, type PaymentLogEntry, type PaymentStep, writePaymentLog } from './payment-log.js';

/** Pending invoices older than this are given up as expired by the periodic check. */
export const INVOICE_TTL_MS = 24 * 60 * 60 * 1000;

/** The same day `months` later in UTC, or the month's last day when it has fewer days. */
export function addMonths(date: Date, months: number): Date {
  const result = new Date(date.getTime());
  const day = result.getUTCDate();
  result.setUTCDate(1);
  result.setUTCMonth(result.getUTCMonth() + months);
  const lastDay = new Date(Date.UTC(result.getUTCFullYear(), result.getUTCMonth() + 1, 0)).getUTCDate();
  result.setUTCDate(Math.min(day, lastDay));
  return result;
}

/**
 * Activates the period an invoice paid for, exactly once: the invoice moves to `paid` in the
 * same transaction that inserts the subscription, the UPDATE only matches an unpaid invoice
 * (concurrent callers wait on the row lock, then match nothing), and `subscriptions.invoice_id`
 * is unique as the last guard. Answers the new subscription id, or null when already activated.
 */
export async function activateInvoice(ctx: PaymentContext, invoiceId: string): Promise<string | null> {
  const now = ctx.clock.now();
  return ctx.db.transaction().execute(async (trx) => {
    const invoice = await trx
      .updateTable('payment_invoices')
      .set({ status: 'paid', settled_at: now })
      .where('invoice_id', '=', invoiceId)
      .where('status', '<>', 'paid')
      .returning(['user_id', 'package_id'])
      .executeTakeFirst();
    if (!invoice) return null;

    const plan = await trx
      .selectFrom('packages')
      .select('duration_months')
      .where('id', '=', invoice.package_id)
      .executeTakeFirstOrThrow();
    // A second paid invoice (two tabs) extends access instead of overlapping the first period.
    const current = await trx
      .selectFrom('subscriptions')
      .select((eb) => eb.fn.max('end_date').as('end_date'))
      .where('owner_id', '=', invoice.user_id)
      .where('end_date', '>', now)
      .executeTakeFirst();
    const currentEnd = current?.end_date ? new Date(current.end_date) : null;
    const start = currentEnd && currentEnd > now ? currentEnd : now;

    const subscription = await trx
      .insertInto('subscriptions')
      .values({
        owner_id: invoice.user_id,
        package_id: invoice.package_id,
        start_date: start,
        end_date: addMonths(start, plan.duration_months),
        is_auto_renew: true,
        source_type: 'Web',
        invoice_id: invoiceId,
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
  });
}

/**
 * Confirms an invoice with the provider server-to-server and applies the answer: activates a
 * paid one (once), closes a declined or cancelled one. Every return, callback and periodic check
 * goes through here. Answers the invoice's status afterwards, or null for an unknown invoice.
 */
export async function settleInvoice(
  ctx: PaymentContext,
  invoiceId: string,
  step: PaymentStep,
): Promise<InvoiceStatus | null> {
  const { db } = ctx;
  const invoice = await db
    .selectFrom('payment_invoices')
    .select(['status', 'amount', 'currency', 'created_at'])
    .where('invoice_id', '=', invoiceId)
    .executeTakeFirst();
  if (!invoice) return null;
  if (invoice.status !== 'created') return invoice.status;

  const party = await findInvoiceParty(db, invoiceId);
  const log = (entry: Omit<PaymentLogEntry, 'orderNumber' | 'currentProcess'>) =>
    writePaymentLog(db, { ...party, orderNumber: invoiceId, currentProcess: step, ...entry }, (error) =>
      ctx.reportError(error, 'payment log write failed'),
    );

  let check: Awaited<ReturnType<PaymentContext['gateway']['checkPayment']>>;
  try {
    check = await ctx.gateway.checkPayment(invoiceId);
  } catch (error) {
    if (!(error instanceof GatewayError)) throw error;
    await log({ type: 'error', message: error.message, request: error.request, response: error.response });
    return 'created';
  }
  const { status, amount, currency } = check.result;
  const exchange = { request: check.request, response: check.response };
  await log({ type: 'info', message: `provider status: ${status}`, ...exchange });

  if (status === 'paid') {
    if (amount !== invoice.amount || currency !== invoice.currency) {
      await log({
        type: 'error',
        message: `provider reports ${amount} ${currency}, invoice is ${invoice.amount} ${invoice.currency}; not activated`,
      });
      return 'created';
    }
    const subscriptionId = await activateInvoice(ctx, invoiceId);
    if (subscriptionId) {
      await writePaymentLog(
        db,
        {
          ...party,
          orderNumber: invoiceId,
          currentProcess: 'activation',
          type: 'info',
          message: `subscription ${subscriptionId} activated`,
        },
        (error) => ctx.reportError(error, 'payment log write failed'),
      );
    }
    return 'paid';
  }

  if (status === 'declined' || status === 'cancelled') {
    const closed = await db
      .updateTable('payment_invoices')
      .set({ status, settled_at: ctx.clock.now() })
      .where('invoice_id', '=', invoiceId)
      .where('status', '=', 'created')
      .returning('status')
      .executeTakeFirst();
    if (closed) await log({ type: 'info', message: `invoice ${status}` });
    return closed?.status ?? (await currentStatus(ctx, invoiceId));
  }

  if (ctx.clock.now().getTime() - new Date(invoice.created_at).getTime() > INVOICE_TTL_MS) {
    const expired = await db
      .updateTable('payment_invoices')
      .set({ status: 'expired', settled_at: ctx.clock.now() })
      .where('invoice_id', '=', invoiceId)
      .where('status', '=', 'created')
      .returning('status')
      .executeTakeFirst();
    if (expired) await log({ type: 'warning', message: 'invoice expired unpaid' });
    return expired?.status ?? (await currentStatus(ctx, invoiceId));
  }
  return 'created';
}

async function currentStatus(ctx: PaymentContext, invoiceId: string): Promise<InvoiceStatus> {
  const row = await ctx.db
    .selectFrom('payment_invoices')
    .select('status')
    .where('invoice_id', '=', invoiceId)
    .executeTakeFirstOrThrow();
  return row.status;
}

/**
 * Terms: the service is suspended if unpaid. A card period bought here has no stored card, so it
 * renews only when a renewal payment arrives; the subscriptions list already stops counting it
 * at its end date, and this records that the unpaid renewal lapsed by turning auto-renew off.
 * App Store and Google Play periods are renewed by the stores and left alone.
 */
export async function lapseUnpaidRenewals(ctx: PaymentContext): Promise<number> {
  const now = ctx.clock.now();
  const lapsed = await ctx.db
    .updateTable('subscriptions')
    .set({ is_auto_renew: false, updated_at: now })
    .where('is_auto_renew', '=', true)
    .where('source_type', 'in', ['Web', 'Voucher'])
    .where('end_date', '<=', now)
    .executeTakeFirst();
  return Number(lapsed.numUpdatedRows);
}

/** The periodic check of product.md §10: settles invoices whose shopper never came back. */
export async function checkPendingInvoices(ctx: PaymentContext, limit = 100): Promise<number> {
  const pending = await ctx.db
    .selectFrom('payment_invoices')
    .select('invoice_id')
    .where('status', '=', 'created')
    .where('provider_token', 'is not', null)
    .orderBy('created_at')
    .limit(limit)
    .execute();
  for (const { invoice_id } of pending) {
    try {
      await settleInvoice(ctx, invoice_id, 'check');
    } catch (error) {
      ctx.reportError(error, `periodic check of invoice ${invoice_id} failed`);
    }
  }
  return pending.length;
}
