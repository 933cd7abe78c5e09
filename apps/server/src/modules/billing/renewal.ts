import { REMINDER_DAYS_BEFORE, RENEWAL_RETRY_DAYS } from '@tunes/shared/billing';
import type { Kysely, QueryCreator, Selectable } from 'kysely';
import { prepared } from '../../db/prepared.js';
import type { Database, SubscriptionsTable } from '../../db/schema.js';
import type { Deps } from '../../deps.js';
import { payments } from '../../lib/metrics.js';
import { takeCapture } from '../premium/capture-once.js';
import { callbackUrl, newInvoiceId, returnUrl } from '../premium/checkout.js';
import { notifyOnce } from '../premium/notices.js';
import { addMonths } from '../premium/period.js';
import { GatewayError } from '../providers/exchange.js';
import { type PaymentLogEntry, subscriberName, writePaymentLog } from '../providers/payment-log.js';
import { billingMessages } from './messages.js';
import '../premium/tables.js';
import type { ErrorLog } from '../../lib/logging.js';

const DAY_MS = 86_400_000;
/** How long a claimed billing step is held before another process may take it (a crash). */
const CLAIM_MS = 10 * 60_000;
/** When the provider cannot be reached, the step is tried again this much later, uncounted. */
const UNREACHABLE_RETRY_MS = 60 * 60_000;
/** The first charge plus one per retry day. */
const MAX_ATTEMPTS = 1 + RENEWAL_RETRY_DAYS.length;
const LAST_RETRY_DAYS = RENEWAL_RETRY_DAYS[RENEWAL_RETRY_DAYS.length - 1] as number;

export type RenewalDeps = Pick<Deps, 'db' | 'clock' | 'config' | 'paymentGateway' | 'qpay' | 'reportError'>;

export type RenewalOutcome = 'renewed' | 'retrying' | 'lapsed' | 'ended' | 'deferred' | 'skipped';

/** What a renewal step reads of the subscription itself. */
const SUBSCRIPTION_COLUMNS = [
  'id',
  'owner_id',
  'end_date',
  'is_auto_renew',
  'renewal_attempts',
  'package_id',
  'next_package_id',
] as const;
type StepSubscription = Pick<Selectable<SubscriptionsTable>, (typeof SUBSCRIPTION_COLUMNS)[number]>;

/**
 * A renewal step's facts: the subscription (the CTE `s`), what its next period costs (a waiting
 * downgrade's plan, if any), the subscriber and the card on file.
 */
function renewalFactsOf<S extends StepSubscription>(db: QueryCreator<Database & { s: S }>) {
  return db
    .selectFrom('s')
    .innerJoin('packages as p', (join) =>
      join.on((eb) => eb('p.id', '=', eb.fn.coalesce('s.next_package_id', 's.package_id'))),
    )
    .innerJoin('users as u', 'u.id', 's.owner_id')
    .leftJoin('saved_cards as c', 'c.user_id', 's.owner_id')
    .select([
      'c.provider_token as card_token',
      'c.brand as card_brand',
      'c.last4 as card_last4',
      's.id',
      's.owner_id',
      's.end_date',
      's.is_auto_renew',
      's.renewal_attempts',
      'p.id as package_id',
      'p.merchant_code',
      'p.name_en',
      'p.name_mn',
      'p.cost',
      'p.currency',
      'p.duration_months',
      'u.first_name',
      'u.last_name',
      'u.username',
      'u.language',
    ]);
}

/** A subscription's renewal facts (the reminder's read): one round trip, its query built once. */
const selectRenewalFacts = prepared((db: Kysely<Database>, args: { subscriptionId: string }) =>
  renewalFactsOf(
    db.with('s', (cte) =>
      cte.selectFrom('subscriptions').select(SUBSCRIPTION_COLUMNS).where('id', '=', args.subscriptionId),
    ),
  ),
);

/**
 * Takes a due billing step and reads its facts in the same statement: `next_billing_at` moves
 * past the claim only if it is still due, and only the caller that moved it gets a row. The
 * subscription's columns come from the UPDATE itself, so a change committed while it waited on
 * the row (a cancel, a plan change) is what the step sees.
 */
const claimStepWithFacts = prepared(
  (db: Kysely<Database>, args: { subscriptionId: string; now: Date; until: Date }) =>
    renewalFactsOf(
      db.with('s', (cte) =>
        cte
          .updateTable('subscriptions')
          .set({ next_billing_at: args.until })
          .where('id', '=', args.subscriptionId)
          .where('next_billing_at', '<=', args.now)
          .returning(SUBSCRIPTION_COLUMNS),
      ),
    ),
);

async function renewalFacts(db: Kysely<Database>, subscriptionId: string) {
  const [facts] = await selectRenewalFacts(db, { subscriptionId });
  return facts;
}
type RenewalFacts = NonNullable<Awaited<ReturnType<typeof renewalFacts>>>;

const planName = (facts: RenewalFacts, lang: 'en' | 'mn') => (lang === 'mn' ? facts.name_mn : facts.name_en);

/** The charge about to be made on a renewal invoice: its attempt number and the card. */
interface ChargeMark extends Record<string, unknown> {
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

const renewalInvoiceRow = (args: RenewalInvoiceArgs) => ({
  invoice_id: args.invoiceId,
  user_id: args.userId,
  package_id: args.packageId,
  amount: args.amount,
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

/**
 * The gateway page where an invoice is paid by hand (the reminder's link for a
 * subscriber without a saved card, "pay now" after a failed charge). Opened once per invoice.
 */
export async function invoicePaymentPage(deps: RenewalDeps, invoiceId: string): Promise<string> {
  const invoice = await deps.db
    .selectFrom('payment_invoices as i')
    .innerJoin('packages as p', 'p.id', 'i.package_id')
    .innerJoin('users as u', 'u.id', 'i.user_id')
    .select([
      'i.invoice_id',
      'i.provider_token',
      'i.amount',
      'p.name_en',
      'u.phone_number',
      'u.primary_email',
    ])
    .where('i.invoice_id', '=', invoiceId)
    .executeTakeFirstOrThrow();
  if (invoice.provider_token) return deps.paymentGateway.paymentPageUrl(invoice.provider_token);
  const storedToken = async () =>
    (
      await deps.db
        .selectFrom('payment_invoices')
        .select('provider_token')
        .where('invoice_id', '=', invoiceId)
        .executeTakeFirstOrThrow()
    ).provider_token;
  const exchange = await deps.paymentGateway
    .requestToken({
      amount: invoice.amount,
      description: invoice.name_en,
      invoice_id: invoice.invoice_id,
      redirect_url: returnUrl(deps.config.PUBLIC_URL, invoice.invoice_id),
      callback_url: callbackUrl(deps.config.PUBLIC_URL),
      ...(invoice.phone_number ? { phone: invoice.phone_number } : {}),
      ...(invoice.primary_email ? { email: invoice.primary_email } : {}),
    })
    .catch(async (error: unknown) => {
      // Tabs asking at once: the gateway opens one session per invoice and refuses the others
      // (`duplicate_invoice`); they answer the page of the one that was opened, once it is stored.
      const code =
        error instanceof GatewayError ? (error.response as { error?: unknown } | null)?.error : null;
      if (code !== 'duplicate_invoice') throw error;
      for (let wait = 0; wait < 20; wait++) {
        const token = await storedToken();
        if (token) return { result: { token } };
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
      throw error;
    });
  // Two callers at once: the first token stored wins and both answer it.
  await deps.db
    .updateTable('payment_invoices')
    .set({ provider_token: exchange.result.token })
    .where('invoice_id', '=', invoiceId)
    .where('provider_token', 'is', null)
    .execute();
  return deps.paymentGateway.paymentPageUrl((await storedToken()) ?? exchange.result.token);
}

/** The site's page for paying one invoice by QPay or card (`/pay/{invoiceId}`, signed in). */
export const sitePaymentPage = (publicUrl: string, invoiceId: string) =>
  `${publicUrl}/pay/${encodeURIComponent(invoiceId)}`;

/** Whether the subscriber's last payment was made with QPay (their renewal link then offers it). */
async function paysByQpay(deps: Pick<Deps, 'db'>, userId: string): Promise<boolean> {
  const last = await deps.db
    .selectFrom('payment_invoices')
    .select('method')
    .where('user_id', '=', userId)
    .where('status', '=', 'paid')
    .orderBy('settled_at', 'desc')
    .limit(1)
    .executeTakeFirst();
  return last?.method === 'qpay';
}

/**
 * The reminder 3 days before a period ends (product.md §12), once per period: with a saved card
 * it names the charge to come; without one it carries the renewal invoice's payment link (the
 * site's page offering QPay and card for a subscriber who last paid with QPay, else the gateway's).
 */
export async function remindRenewal(
  deps: RenewalDeps,
  subscriptionId: string,
  log?: ErrorLog,
): Promise<boolean> {
  const now = deps.clock.now();
  const facts = await renewalFacts(deps.db, subscriptionId);
  if (!facts?.is_auto_renew || facts.end_date <= now) return false;
  if (facts.end_date.getTime() - now.getTime() > REMINDER_DAYS_BEFORE * DAY_MS) return false;
  const price = { amount: facts.cost, currency: facts.currency };
  const key = `reminder:${facts.id}:${facts.end_date.toISOString()}`;
  let sent: boolean;
  if (facts.card_token) {
    const cardName = `${facts.card_brand} •••• ${facts.card_last4}`;
    sent = await notifyOnce(
      deps,
      {
        key,
        userId: facts.owner_id,
        text: (lang) =>
          billingMessages.reminderCard(lang, planName(facts, lang), price, facts.end_date, cardName),
      },
      log,
    );
  } else {
    const invoice = await renewalInvoice(deps, facts);
    const link = (await paysByQpay(deps, facts.owner_id))
      ? sitePaymentPage(deps.config.PUBLIC_URL, invoice.invoice_id)
      : await invoicePaymentPage(deps, invoice.invoice_id);
    sent = await notifyOnce(
      deps,
      {
        key,
        userId: facts.owner_id,
        link,
        text: (lang) =>
          billingMessages.reminderLink(lang, planName(facts, lang), price, facts.end_date, link),
      },
      log,
    );
  }
  await markReminded(deps.db, { subscriptionId, endDate: facts.end_date });
  return sent;
}

/** Records that a period's reminder went out. */
const markReminded = prepared((db: Kysely<Database>, args: { subscriptionId: string; endDate: Date }) =>
  db.updateTable('subscriptions').set({ reminded_for: args.endDate }).where('id', '=', args.subscriptionId),
);

/**
 * One billing step of a subscription whose `next_billing_at` has come (product.md §12): the
 * charge on the end date, a retry 1, 3 and 5 days later (access kept meanwhile), the lapse
 * after the last. Exactly once per step whatever runs at once: the step is claimed by moving
 * `next_billing_at` in one UPDATE; the charge carries the invoice (subscription + period) and
 * the attempt number, so a provider asked twice answers the first result and never takes a
 * second payment; the paid invoice is applied by activation-once.ts.
 */
export async function runRenewalStep(
  deps: RenewalDeps,
  subscriptionId: string,
  log?: ErrorLog,
): Promise<RenewalOutcome> {
  const now = deps.clock.now();
  const [facts] = await claimStepWithFacts(deps.db, {
    subscriptionId,
    now,
    until: new Date(now.getTime() + CLAIM_MS),
  });
  if (!facts) return 'skipped';
  if (!facts.is_auto_renew) {
    await settleStep(deps.db, subscriptionId, { next_billing_at: null });
    return 'ended';
  }

  const card = facts.card_token
    ? { provider_token: facts.card_token, brand: facts.card_brand ?? '', last4: facts.card_last4 ?? '' }
    : null;
  const attempt = facts.renewal_attempts + 1;
  const invoice = await renewalInvoice(
    deps,
    facts,
    card ? { attempt, brand: card.brand, last4: card.last4 } : undefined,
  );
  const party = {
    orderNumber: invoice.invoice_id,
    userId: facts.owner_id,
    subscriberName: subscriberName(facts),
    packageName: facts.name_en,
    purchasePrice: invoice.amount,
  };
  const logStep = (entry: Omit<PaymentLogEntry, keyof typeof party | 'currentProcess'>) =>
    writePaymentLog(deps, { ...party, currentProcess: 'renewal', ...entry });
  const price = { amount: invoice.amount, currency: invoice.currency };

  if (invoice.status === 'paid') {
    // Paid by its link or "pay now" already: activation moved the period on.
    return 'renewed';
  }
  if (!card) {
    // No card to charge: the reminder carried the link; unpaid at the end, the period ends.
    await lapse(deps, facts, invoice.invoice_id, log);
    await logStep({ type: 'info', message: 'no saved card; the unpaid renewal lapsed' });
    return 'lapsed';
  }

  let result: Awaited<ReturnType<Deps['paymentGateway']['chargeCard']>>;
  try {
    result = await deps.paymentGateway.chargeCard({
      cardToken: card.provider_token,
      invoiceId: invoice.invoice_id,
      attempt,
      amount: invoice.amount,
      currency: invoice.currency,
    });
  } catch (error) {
    if (!(error instanceof GatewayError)) throw error;
    await logStep({
      type: 'error',
      message: error.message,
      request: error.request,
      response: error.response,
    });
    await settleStep(deps.db, subscriptionId, {
      next_billing_at: new Date(now.getTime() + UNREACHABLE_RETRY_MS),
    });
    return 'deferred';
  }
  await logStep({
    type: result.result.status === 'paid' ? 'info' : 'warning',
    message: `charge attempt ${attempt}: ${result.result.status}`,
    request: result.request,
    response: result.response,
  });

  if (result.result.status === 'paid') {
    const taken = await takeCapture(
      deps,
      invoice.invoice_id,
      {
        method: 'card',
        reference: result.result.reference ?? `charge:${attempt}`,
        amount: result.result.amount,
        currency: result.result.currency,
      },
      'renewal',
      log,
    );
    if (taken.outcome === 'surplus') {
      // Paid by its link meanwhile (or another amount taken): this charge was given back.
      deps.reportError(
        new Error(`renewal charge not applied: ${taken.reason}`),
        `renewal ${invoice.invoice_id}`,
      );
      return 'deferred';
    }
    const until = invoice.period_end ?? now;
    await notifyOnce(
      deps,
      {
        key: `charged:${invoice.invoice_id}`,
        userId: facts.owner_id,
        text: (lang) => billingMessages.charged(lang, planName(facts, lang), price, until),
      },
      log,
    );
    return 'renewed';
  }

  payments.inc({ method: 'card', kind: 'renewal', outcome: 'declined' });
  if (attempt >= MAX_ATTEMPTS) {
    await lapse(deps, facts, invoice.invoice_id, log);
    return 'lapsed';
  }
  const retryDays = RENEWAL_RETRY_DAYS[attempt - 1] ?? LAST_RETRY_DAYS;
  const retryAt = new Date(facts.end_date.getTime() + retryDays * DAY_MS);
  await settleStep(deps.db, subscriptionId, {
    next_billing_at: retryAt,
    renewal_attempts: attempt,
    // Access holds a day past the retry, so a late job never cuts a subscriber off early.
    grace_until: new Date(retryAt.getTime() + DAY_MS),
  });
  const link = await invoicePaymentPage(deps, invoice.invoice_id).catch(() => deps.config.PUBLIC_URL);
  await notifyOnce(
    deps,
    {
      key: `failed:${invoice.invoice_id}:${attempt}`,
      userId: facts.owner_id,
      link,
      text: (lang) => billingMessages.chargeFailed(lang, planName(facts, lang), price, retryAt, link),
    },
    log,
  );
  return 'retrying';
}

async function settleStep(
  db: Kysely<Database>,
  subscriptionId: string,
  values: { next_billing_at: Date | null; renewal_attempts?: number; grace_until?: Date | null },
) {
  await db.updateTable('subscriptions').set(values).where('id', '=', subscriptionId).execute();
}

/** The renewal was not paid: auto-renew off, access ends, the subscriber is told once. */
async function lapse(deps: RenewalDeps, facts: RenewalFacts, invoiceId: string, log?: ErrorLog) {
  const now = deps.clock.now();
  await deps.db
    .updateTable('subscriptions')
    .set({
      is_auto_renew: false,
      next_billing_at: null,
      grace_until: null,
      renewal_attempts: 0,
      next_package_id: null,
      updated_at: now,
    })
    .where('id', '=', facts.id)
    .execute();
  await deps.db
    .updateTable('payment_invoices')
    .set({ status: 'failed', settled_at: now })
    .where('invoice_id', '=', invoiceId)
    .where('status', '=', 'created')
    .where('provider_token', 'is', null)
    // A QPay invoice stays open until it expires, so the check cancels it at QPay first.
    .where((eb) =>
      eb.not(
        eb.exists(
          eb.selectFrom('qpay_invoices as q').select('q.invoice_id').where('q.invoice_id', '=', invoiceId),
        ),
      ),
    )
    .execute();
  const link = `${deps.config.PUBLIC_URL}/premium`;
  await notifyOnce(
    deps,
    {
      key: `lapsed:${facts.id}:${facts.end_date.toISOString()}`,
      userId: facts.owner_id,
      link,
      text: (lang) => billingMessages.lapsed(lang, planName(facts, lang), link),
    },
    log,
  );
}
