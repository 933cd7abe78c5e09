import { sql } from 'kysely';
import { subscriberName } from '../providers/payment-log.js';
import { applyCapture } from './activation-once.js';
import type { Capture, CaptureDeps } from './capture-once.js';
import type { InvoiceParty } from './invoice-party.js';
import type { OpenAttempts } from './open-attempts.js';
import { keepCard } from './saved-cards.js';
import './tables.js';

/** The capture's transaction: recorded once in the ledger, and applied or found surplus. */
export async function decideCapture(deps: CaptureDeps, invoiceId: string, capture: Capture) {
  const now = deps.clock.now();
  return deps.db.transaction().execute(async (trx) => {
    // The invoice, locked (a concurrent capture, expiry or deletion is wholly before or after
    // this), with its owner's state, what its log lines and message name, and its attempts.
    const captured = (method: 'card' | 'qpay', reference?: string) =>
      sql<boolean>`exists (select 1 from payment_ledger l where l.invoice_id = i.invoice_id
        and l.entry = 'capture' and l.method = ${method}
        ${reference ? sql`and l.reference = ${reference}` : sql``})`;
    const invoice = await trx
      .selectFrom('payment_invoices as i')
      .leftJoin('users as u', 'u.id', 'i.user_id')
      .leftJoin('packages as p', 'p.id', 'i.package_id')
      .leftJoin('qpay_invoices as q', 'q.invoice_id', 'i.invoice_id')
      .select([
        'u.first_name',
        'u.last_name',
        'u.username',
        'p.name_en',
        'p.name_mn',
        'i.provider_token',
        'i.card_voided_at',
        'q.qpay_invoice_id',
        'q.cancelled_at as qpay_cancelled_at',
        captured('card', 'session').as('card_captured'),
        captured('qpay').as('qpay_captured'),
        // Whether the payer bought before, for a purchase's message (welcome or not).
        sql<boolean>`i.kind = 'purchase' and exists (
          select 1 from payment_invoices earlier
          where earlier.user_id = i.user_id and earlier.kind = 'purchase'
            and earlier.status in ('paid', 'refunded', 'partly_refunded')
            and earlier.invoice_id <> i.invoice_id and earlier.settled_at < ${now}
        )`.as('bought_before'),
      ])
      .select([
        'i.status',
        'i.amount',
        'i.currency',
        'i.kind',
        'i.user_id',
        'i.save_card',
        'i.method',
        'i.subscription_id',
        'i.period_end',
        'u.deleted_at',
      ])
      .where('i.invoice_id', '=', invoiceId)
      .forUpdate('i')
      .executeTakeFirst();
    if (!invoice) return null;
    const party: InvoiceParty | null =
      invoice.username !== null && invoice.name_en !== null
        ? {
            orderNumber: invoiceId,
            userId: invoice.user_id,
            subscriberName: subscriberName({
              first_name: invoice.first_name ?? '',
              last_name: invoice.last_name ?? '',
              username: invoice.username,
            }),
            packageName: invoice.name_en,
            purchasePrice: invoice.amount,
          }
        : null;

    let reason: string | null = null;
    if (invoice.status !== 'created') reason = `the invoice is already ${invoice.status}`;
    else if (invoice.deleted_at) reason = 'the account was deleted';
    else if (capture.amount !== invoice.amount || capture.currency !== invoice.currency) {
      reason = `the provider took ${capture.amount} ${capture.currency}; the invoice is ${invoice.amount} ${invoice.currency}`;
    } else if (invoice.kind === 'change') {
      // A plan change belongs to its period: paid after that period ended, it buys nothing.
      const subscription = invoice.subscription_id
        ? await trx
            .selectFrom('subscriptions')
            .select('end_date')
            .where('id', '=', invoice.subscription_id)
            .forUpdate()
            .executeTakeFirst()
        : undefined;
      const periodEnd = invoice.period_end?.getTime();
      if (!subscription || periodEnd === undefined || subscription.end_date.getTime() !== periodEnd) {
        reason = 'the plan change was for a period that has ended';
      } else if (now.getTime() >= periodEnd) reason = 'the plan change was paid after its period ended';
    }

    // Recorded once: the same report again (a retry, a second check) is known and changes nothing.
    if (reason) {
      const row = await trx
        .insertInto('payment_ledger')
        .values({
          invoice_id: invoiceId,
          subscription_id: invoice.subscription_id,
          entry: 'capture',
          method: capture.method,
          reference: capture.reference,
          amount: capture.amount,
          currency: capture.currency,
          outcome: 'surplus',
          reason,
          created_at: now,
        })
        .onConflict((oc) => oc.columns(['invoice_id', 'entry', 'method', 'reference']).doNothing())
        .returning('id')
        .executeTakeFirst();
      if (!row) return { outcome: 'known' as const };
      return { outcome: 'surplus' as const, reason, ledgerId: row.id, userId: invoice.user_id, party };
    }

    // The first capture of the open invoice: its ledger row and the invoice paid in one statement.
    const { card } = capture;
    const applied = await applyCapture(
      trx,
      invoiceId,
      now,
      {
        subscriptionId: invoice.subscription_id,
        method: capture.method,
        reference: capture.reference,
        amount: capture.amount,
        currency: capture.currency,
      },
      // A renewal link paid with QPay (or a QPay page paid by card): the receipt names the method.
      { method: capture.method, cardBrand: card?.brand ?? null, cardLast4: card?.last4 ?? null },
    );
    if (!applied) return { outcome: 'known' as const };
    const { period } = applied;
    if (card && invoice.save_card) await keepCard({ db: trx, clock: deps.clock }, invoice.user_id, card);
    const open: OpenAttempts = {
      currency: invoice.currency,
      card:
        invoice.provider_token !== null &&
        invoice.card_voided_at === null &&
        !invoice.card_captured &&
        !(capture.method === 'card' && capture.reference === 'session'),
      qpay:
        invoice.qpay_invoice_id !== null &&
        invoice.qpay_cancelled_at === null &&
        !invoice.qpay_captured &&
        capture.method !== 'qpay'
          ? invoice.qpay_invoice_id
          : null,
    };
    const paid = (until: Date | null) => ({
      invoice_id: invoiceId,
      user_id: invoice.user_id,
      kind: invoice.kind,
      amount: invoice.amount,
      currency: invoice.currency,
      until: until ?? invoice.period_end,
      name_en: invoice.name_en ?? '',
      name_mn: invoice.name_mn ?? '',
      bought_before: invoice.bought_before,
    });
    return { outcome: 'applied' as const, period, open, party, paid };
  });
}
