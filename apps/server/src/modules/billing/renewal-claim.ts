import { RENEWAL_RETRY_DAYS } from '@tunes/shared/billing';
import { DAY_MS } from '@tunes/shared/constants';
import type { Kysely, QueryCreator, Selectable } from 'kysely';
import { prepared } from '../../db/prepared.js';
import type { Database, SubscriptionsTable } from '../../db/schema.js';
import type { Deps } from '../../deps.js';
import '../premium/tables.js';
import './pay-renewals-by.js';
import { offerRenewalDiscount } from '../offers/pricing.js';
import { renewalCostOf } from '../prices/price-schedule.js';
import { trialEndingWith } from '../trials/state.js';

const LAST_RETRY_DAYS = RENEWAL_RETRY_DAYS[RENEWAL_RETRY_DAYS.length - 1] as number;

/**
 * When a failing renewal's last retry falls, and with it the end of access if nothing is paid:
 * the one date the failure messages and the profile name (issue 37: the profile promised a day
 * more than the account had).
 */
export const lastRetryAt = (endDate: Date) => new Date(endDate.getTime() + LAST_RETRY_DAYS * DAY_MS);

/** What a renewal step (renewal.ts) and the reminder need; the step is claimed, read and settled here. */
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
  return (
    db
      .selectFrom('s')
      .innerJoin('packages as p', (join) =>
        join.on((eb) => eb('p.id', '=', eb.fn.coalesce('s.next_package_id', 's.package_id'))),
      )
      .innerJoin('users as u', 'u.id', 's.owner_id')
      // The card on file, unless the subscriber chose to renew by a QPay link (pay-renewals-by.ts).
      .leftJoin('saved_cards as c', (join) =>
        join
          .onRef('c.user_id', '=', 's.owner_id')
          .on((eb) =>
            eb.not(
              eb.exists(
                eb
                  .selectFrom('renewal_methods as m')
                  .select('m.user_id')
                  .whereRef('m.user_id', '=', 'c.user_id')
                  .where('m.method', '=', 'qpay'),
              ),
            ),
          ),
      )
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
        'p.currency',
        'p.duration_months',
        'u.first_name',
        'u.last_name',
        'u.username',
        'u.language',
      ])
      .select((eb) =>
        // The price of the next period: the old one while a price rise's notice runs (prices/).
        renewalCostOf({
          subscriptionId: eb.ref('s.id'),
          packageId: eb.ref('p.id'),
          periodStart: eb.ref('s.end_date'),
          cost: eb.ref('p.cost'),
        }).as('cost'),
      )
  );
}

/**
 * The reminder's read, one round trip with its query built once: a subscription's renewal facts,
 * what its offer takes off the coming period (as that period's invoice will, modules/offers) and
 * the trial whose free days end with it, if any (modules/trials).
 */
const selectReminderFacts = prepared((db: Kysely<Database>, args: { subscriptionId: string }) =>
  renewalFactsOf(
    db.with('s', (cte) =>
      cte.selectFrom('subscriptions').select(SUBSCRIPTION_COLUMNS).where('id', '=', args.subscriptionId),
    ),
  )
    // The plan of the period ending (a trial's), which a change waiting for its end is not.
    .innerJoin('packages as ending_plan', 'ending_plan.id', 's.package_id')
    .select(['ending_plan.name_en as ending_name_en', 'ending_plan.name_mn as ending_name_mn'])
    .select((eb) => [
      offerRenewalDiscount({
        subscriptionId: eb.ref('s.id'),
        packageId: eb.ref('p.id'),
        cost: renewalCostOf({
          subscriptionId: eb.ref('s.id'),
          packageId: eb.ref('p.id'),
          periodStart: eb.ref('s.end_date'),
          cost: eb.ref('p.cost'),
        }),
      }).as('discount'),
      trialEndingWith(db, eb.ref('s.id'), eb.ref('s.end_date')).as('trial_method'),
    ]),
);

/**
 * Takes a due billing step and reads its facts in the same statement: `next_billing_at` moves
 * past the claim only if it is still due, and only the caller that moved it gets a row. The
 * subscription's columns come from the UPDATE itself, so a change committed while it waited on
 * the row (a cancel, a plan change) is what the step sees.
 */
export const claimStepWithFacts = prepared(
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

export async function reminderFacts(db: Kysely<Database>, subscriptionId: string) {
  const [facts] = await selectReminderFacts(db, { subscriptionId });
  return facts && { ...facts, discount: Number(facts.discount) };
}

/** What a renewal step knows of its subscription (claimStepWithFacts). */
export type RenewalFacts = NonNullable<Awaited<ReturnType<typeof claimStepWithFacts>>[number]>;

export const planName = (facts: RenewalFacts, lang: 'en' | 'mn') =>
  lang === 'mn' ? facts.name_mn : facts.name_en;

/** Ends a claimed step: when the next one is due (none: no more renewals), and its counters. */
export async function settleStep(
  db: Kysely<Database>,
  subscriptionId: string,
  values: { next_billing_at: Date | null; renewal_attempts?: number; grace_until?: Date | null },
) {
  await db.updateTable('subscriptions').set(values).where('id', '=', subscriptionId).execute();
}
