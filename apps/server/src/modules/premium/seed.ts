import { MERCHANT_ID } from '@tunes/shared/constants';
import type { Insertable, Kysely } from 'kysely';
import type { Database, PackagesTable } from '../../db/schema.js';
import type { DemoSeed } from '../../db/seed.js';

/**
 * Plan codes other modules (vouchers, family) rely on. They never change once seeded.
 */
export const PLAN_CODES = {
  premium: 'PREMIUM_1M',
  duo: 'PREMIUM_DUO_1M',
  family: 'PREMIUM_FAMILY_1M',
} as const;

const plans: Insertable<PackagesTable>[] = [
  {
    merchant_id: MERCHANT_ID,
    merchant_code: PLAN_CODES.premium,
    offer: 'premium',
    name_en: 'Premium',
    name_mn: 'Премиум',
    description_en: 'Ad-free music for one listener.',
    description_mn: 'Нэг хэрэглэгчид зар сурталчилгаагүй хөгжим.',
    cost: 6900,
    original_cost: null,
    currency: 'MNT',
    allow_share: false,
    max_shared_users: 0,
    sort_order: 1,
  },
  {
    merchant_id: MERCHANT_ID,
    merchant_code: PLAN_CODES.duo,
    offer: 'premium-duo',
    name_en: 'Premium Duo',
    name_mn: 'Премиум Дуо',
    description_en: 'Two Premium accounts for two people under one roof.',
    description_mn: 'Нэг гэрт амьдардаг хоёр хүнд зориулсан хоёр Премиум бүртгэл.',
    cost: 9900,
    original_cost: 13800,
    currency: 'MNT',
    allow_share: true,
    max_shared_users: 1,
    sort_order: 2,
  },
  {
    merchant_id: MERCHANT_ID,
    merchant_code: PLAN_CODES.family,
    offer: 'premium-family',
    name_en: 'Premium Family',
    name_mn: 'Премиум Гэр бүл',
    description_en: 'Up to four Premium accounts for family members living together.',
    description_mn: 'Хамт амьдардаг гэр бүлийн дөрвөн хүртэлх гишүүнд Премиум бүртгэл.',
    cost: 17900,
    original_cost: 27600,
    currency: 'MNT',
    allow_share: true,
    max_shared_users: 3,
    sort_order: 3,
  },
  // Plans the /premium page must hide (product.md §11): another currency, and another offer.
  {
    merchant_id: MERCHANT_ID,
    merchant_code: 'PREMIUM_1M_USD',
    offer: 'premium',
    name_en: 'Premium (USD)',
    name_mn: 'Премиум (USD)',
    description_en: 'Premium billed in US dollars.',
    description_mn: 'Ам.доллараар төлөгдөх Премиум.',
    cost: 299,
    original_cost: null,
    currency: 'USD',
    allow_share: false,
    max_shared_users: 0,
    sort_order: 4,
  },
  {
    merchant_id: MERCHANT_ID,
    merchant_code: 'PREMIUM_12M',
    offer: 'premium-annual',
    name_en: 'Premium Annual',
    name_mn: 'Премиум жилийн',
    description_en: 'Twelve months of Premium paid at once.',
    description_mn: 'Арван хоёр сарын Премиум нэг дор.',
    cost: 69000,
    original_cost: 82800,
    currency: 'MNT',
    duration_months: 12,
    allow_share: false,
    max_shared_users: 0,
    sort_order: 5,
  },
];

export async function seedPlans(db: Kysely<Database>): Promise<void> {
  await db
    .insertInto('merchants')
    .values({ id: MERCHANT_ID, name: 'Tunes' })
    .onConflict((oc) => oc.column('id').doNothing())
    .execute();
  await db
    .insertInto('packages')
    .values(plans)
    .onConflict((oc) => oc.column('merchant_code').doNothing())
    .execute();
}

/** Merchant 14 with the plans of product.md §9 and two the plans page must filter out. */
export const premiumPlansSeed: DemoSeed = { name: 'premium-plans', run: seedPlans };
