import type { Merchant, Plan } from '@tunes/shared/premium';
import type { Kysely } from 'kysely';
import { prepared } from '../../db/prepared.js';
import type { Database, Package } from '../../db/schema.js';

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
  };
}

export async function listMerchants(db: Kysely<Database>): Promise<Merchant[]> {
  const rows = await db.selectFrom('merchants').select(['id', 'name']).orderBy('id').execute();
  return rows.map((row) => ({ MerchantId: row.id, Name: row.name }));
}

const selectMerchant = prepared((db: Kysely<Database>, args: { merchantId: number }) =>
  db.selectFrom('merchants').select('id').where('id', '=', args.merchantId),
);

export async function merchantExists(db: Kysely<Database>, merchantId: number): Promise<boolean> {
  const [row] = await selectMerchant(db, { merchantId });
  return Boolean(row);
}

const selectMerchantPlans = prepared((db: Kysely<Database>, args: { merchantId: number }) =>
  db
    .selectFrom('packages')
    .selectAll()
    .where('merchant_id', '=', args.merchantId)
    .where('is_active', '=', true)
    .orderBy('sort_order')
    .orderBy('id'),
);

/** Every plan on sale at a merchant, in display order; the site filters currency and offer. */
export async function listMerchantPlans(db: Kysely<Database>, merchantId: number): Promise<Plan[]> {
  return (await selectMerchantPlans(db, { merchantId })).map(toPlan);
}

export function findPlanByCode(db: Kysely<Database>, merchantCode: string) {
  return db
    .selectFrom('packages')
    .selectAll()
    .where('merchant_code', '=', merchantCode)
    .where('is_active', '=', true)
    .executeTakeFirst();
}
