import { MERCHANT_ID } from '@tunes/shared/constants';
import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.js';
import type { DemoSeed } from '../../db/seed.js';
import { systemClock } from '../../lib/clock.js';
import { importContent } from '../content/content-store.js';
import { demoCatalog, demoContent } from './catalog-file.js';
import { DEFAULT_MERCHANT_NAME, planRow } from './catalog-import.js';

/**
 * The demo catalog (catalog/demo.yaml) as the seeds of a fresh database: its plans and its landing
 * content. They live with the catalog, which builds on premium and content, not the other way.
 */

/**
 * Plan codes of the demo catalog (catalog/demo.yaml) that tests rely on. They never change once seeded.
 */
export const PLAN_CODES = {
  premium: 'PREMIUM_1M',
  duo: 'PREMIUM_DUO_1M',
  family: 'PREMIUM_FAMILY_1M',
} as const;

/**
 * Adds the demo catalog's plans that are missing, touching no other plan (tests call it again
 * after changing a plan or adding their own); on a fresh database the same as `catalog:import`.
 */
export async function seedPlans(db: Kysely<Database>): Promise<void> {
  const catalog = demoCatalog();
  await db
    .insertInto('merchants')
    .values({ id: MERCHANT_ID, name: catalog.merchant?.name ?? DEFAULT_MERCHANT_NAME })
    .onConflict((oc) => oc.column('id').doNothing())
    .execute();
  await db
    .insertInto('packages')
    .values(catalog.plans.map(planRow))
    .onConflict((oc) => oc.column('merchant_code').doNothing())
    .execute();
}

/** Merchant 14 with the plans of product.md §9 and two the plans page must filter out (catalog/demo.yaml). */
export const premiumPlansSeed: DemoSeed = { name: 'premium-plans', run: seedPlans };

/** Banner texts, 8 artists, 12 songs, 8 playlists, a music video and three reels (product.md §11; catalog/demo.yaml). */
export const landingContentSeed: DemoSeed = {
  name: 'content:landing-demo',
  async run(db) {
    await importContent({ db, clock: systemClock }, demoContent());
  },
};
