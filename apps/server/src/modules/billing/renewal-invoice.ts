import { type Kysely, sql } from 'kysely';
import { prepared } from '../../db/prepared.js';
import type { Database } from '../../db/schema.js';
import type { Deps } from '../../deps.js';
import { offerRenewalDiscount, offerRenewalRedemption } from '../offers/pricing.js';
import { newInvoiceId } from '../premium/checkout.js';
import { addMonths } from '../premium/period.js';
import type { RenewalFacts } from './renewal-claim.js';
import '../premium/tables.js';

/** The charge about to be made on a renewal invoice: its attempt number and the card. */
export interface ChargeMark extends Record<string, unknown> {
  attempt: number;
  brand: string;
  last4: string;
}

interface RenewalInvoiceArgs extends Record<string, unknown> {
  invoiceId: string;
  userId: string;
  packageId: number;
  amount: number;
  currency: string;
  now: Date;
  key: string;
  subscriptionId: string;
  periodStart: Date;
  periodEnd: Date;
}

/** A renewal priced with the subscription's offer while it has periods left (modules/offers). */
const offerRefs = (args: RenewalInvoiceArgs) => ({
  subscriptionId: args.subscriptionId,
  packageId: args.packageId,
  cost: args.amount,
});

const renewalInvoiceRow = (args: RenewalInvoiceArgs) => ({
  invoice_id: args.invoiceId,
  user_id: args.userId,
  package_id: args.packageId,
  amount: sql<number>`${args.amount}::integer - ${offerRenewalDiscount(offerRefs(args))}`,
  discount: offerRenewalDiscount(offerRefs(args)),
  offer_redemption_id: offerRenewalRedemption(offerRefs(args)),
  currency: args.currency,
  created_at: args.now,
  kind: 'renewal' as const,
  method: 'card' as const,
  idempotency_key: args.key,
  subscription_id: args.subscriptionId,
  period_start: args.periodStart,
  period_end: args.periodEnd,
});

/** The renewal invoice, unless its period has one already. */
const insertRenewalInvoice = prepared((db: Kysely<Database>, args: RenewalInvoiceArgs) =>
  db
    .insertInto('payment_invoices')
    .values(renewalInvoiceRow(args))
    .onConflict((oc) => oc.column('idempotency_key').doNothing())
    .returningAll(),
);

/** The renewal invoice marked with the charge about to be made; a paid one is left as it is. */
const upsertChargedInvoice = prepared((db: Kysely<Database>, args: RenewalInvoiceArgs & ChargeMark) => {
  const mark = { charge_attempts: args.attempt, card_brand: args.brand, card_last4: args.last4 };
  return db
    .insertInto('payment_invoices')
    .values({ ...renewalInvoiceRow(args), ...mark })
    .onConflict((oc) =>
      oc.column('idempotency_key').doUpdateSet(mark).where('payment_invoices.status', '<>', 'paid'),
    )
    .returningAll();
});

const selectInvoiceByKey = prepared((db: Kysely<Database>, args: { key: string }) =>
  db.selectFrom('payment_invoices').selectAll().where('idempotency_key', '=', args.key),
);

/**
 * The invoice of the period after the current one: one per subscription and period start (its
 * idempotency key), whichever job, retry or "pay now" asks for it first. With `charge`, an unpaid
 * invoice is marked with the attempt and card in the same statement (the history shows them).
 */
export async function renewalInvoice(
  deps: Pick<Deps, 'db' | 'clock'>,
  facts: RenewalFacts,
  charge?: ChargeMark,
) {
  const values: RenewalInvoiceArgs = {
    invoiceId: newInvoiceId(facts.merchant_code),
    userId: facts.owner_id,
    packageId: facts.package_id,
    amount: facts.cost,
    currency: facts.currency,
    now: deps.clock.now(),
    key: renewalKey(facts.id, facts.end_date),
    subscriptionId: facts.id,
    periodStart: facts.end_date,
    periodEnd: addMonths(facts.end_date, facts.duration_months),
  };
  const [written] = charge
    ? await upsertChargedInvoice(deps.db, { ...values, ...charge })
    : await insertRenewalInvoice(deps.db, values);
  // Nothing written: the invoice exists (and, when charging, is paid already).
  if (written) return written;
  const [existing] = await selectInvoiceByKey(deps.db, { key: values.key });
  if (!existing) throw new Error(`renewal invoice ${values.key} is gone`);
  return existing;
}

/** The renewal invoice of the period starting at `periodStart`, if one was made. */
export function renewalInvoiceFor(deps: Pick<Deps, 'db'>, subscriptionId: string, periodStart: Date) {
  return deps.db
    .selectFrom('payment_invoices')
    .select(['invoice_id', 'status'])
    .where('idempotency_key', '=', renewalKey(subscriptionId, periodStart))
    .executeTakeFirst();
}

const renewalKey = (subscriptionId: string, periodStart: Date) =>
  `renewal:${subscriptionId}:${periodStart.toISOString()}`;
