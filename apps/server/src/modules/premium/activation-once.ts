import type { Deps } from '../../deps.js';
import { addMonths } from './period.js';
import './tables.js';

/**
 * Exactly-once activation (product.md §10): any number of returns, callbacks and checks of one
 * invoice, in any order and at once, activate one subscription period. The invoice moves to
 * `paid` in the same transaction that inserts the subscription; the UPDATE only matches an
 * unpaid invoice (concurrent callers wait on the row lock, then match nothing); and
 * `subscriptions.invoice_id` is unique as the last guard. Answers the new subscription id, or
 * null when the invoice was already activated. Proven by test/premium/activation-once.test.ts.
 */
export async function activateInvoice(
  deps: Pick<Deps, 'db' | 'clock'>,
  invoiceId: string,
): Promise<string | null> {
  const now = deps.clock.now();
  return deps.db.transaction().execute(async (trx) => {
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
