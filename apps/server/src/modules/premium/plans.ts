import type { Merchant, Plan } from '@tunes/shared/premium';
import type { Kysely } from 'kysely';
import { prepared } from '../../db/prepared.js';
import type { Database, Package } from '../../db/schema.js';
import type { Deps } from '../../deps.js';
import { notFound } from '../../lib/errors.js';

export function toPlan(row: Package): Plan {
  return {
    MerchantCode: row.merchant_code,
    Offer: row.offer,
    Name: [
      { Language: 'en', Value: row.name_en },
      { Language: 'mn', Value: row.name_mn },
    ],
    Description: [
      { Language: 'en', Value: row.description_en },
      { Language: 'mn', Value: row.description_mn },
    ],
    Cost: row.cost,
    OriginalCost: row.original_cost,
    Currency: row.currency,
    DurationMonths: row.duration_months,
    AllowShare: row.allow_share,
    MaxSharedUsers: row.max_shared_users,
    Badge:
      row.badge_en && row.badge_mn
        ? [
            { Language: 'en', Value: row.badge_en },
            { Language: 'mn', Value: row.badge_mn },
          ]
        : null,
    TrialDays: row.trial_days,
  };
}

export async function listMerchants(deps: Pick<Deps, 'db'>): Promise<Merchant[]> {
  const rows = await deps.db.selectFrom('merchants').select(['id', 'name']).orderBy('id').execute();
  return rows.map((row) => ({ MerchantId: row.id, Name: row.name }));
}

const selectMerchant = prepared((db: Kysely<Database>, args: { merchantId: number }) =>
  db.selectFrom('merchants').select('id').where('id', '=', args.merchantId),
);

const selectMerchantPlans = prepared((db: Kysely<Database>, args: { merchantId: number }) =>
  db
    .selectFrom('packages')
    .selectAll()
    .where('merchant_id', '=', args.merchantId)
    .where('is_active', '=', true)
    .orderBy('sort_order')
    .orderBy('id'),
);

/**
 * Every plan on sale at a merchant, in display order; the site filters currency and offer.
 * One round trip for a merchant with plans; only an empty list asks whether it exists (404).
 */
export async function listMerchantPlans(deps: Pick<Deps, 'db'>, merchantId: number): Promise<Plan[]> {
  const plans = await selectMerchantPlans(deps.db, { merchantId });
  if (plans.length === 0 && (await selectMerchant(deps.db, { merchantId })).length === 0) {
    throw notFound(`There is no merchant ${merchantId}.`);
  }
  return plans.map(toPlan);
}

export function findPlanByCode(deps: Pick<Deps, 'db'>, merchantCode: string) {
  return deps.db
    .selectFrom('packages')
    .selectAll()
    .where('merchant_code', '=', merchantCode)
    .where('is_active', '=', true)
    .executeTakeFirst();
}
