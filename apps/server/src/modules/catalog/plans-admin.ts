import type { PlanCreate } from '@tunes/shared/catalog';
import { MERCHANT_ID, PAYMENT_CURRENCY } from '@tunes/shared/constants';
import { API_ERROR_CODES } from '@tunes/shared/error-codes';
import type { Kysely } from 'kysely';
import type { Database, Package } from '../../db/schema.js';
import type { Deps } from '../../deps.js';
import { conflict, notFound } from '../../lib/errors.js';
import { audit } from '../console/audit.js';
import { type PriceChange, schedulePriceChange } from '../prices/price-schedule.js';
import { DEFAULT_MERCHANT_NAME } from './catalog-import.js';

/**
 * Plans run from the console (admin; docs/console-api.md "Plans"): create, retire or put back on
 * sale, reorder, badge, and a new price with notice. Each change is audited in its own
 * transaction, and every change (and `catalog:import`) first locks the merchant's row, so changes
 * at once take turns: two reorders or creates never interleave into a mixed order.
 */

type Db = Kysely<Database>;
type PlanDeps = Pick<Deps, 'db' | 'clock'>;

/** The merchant's row, made if missing and locked for the rest of the transaction. */
async function lockMerchant(trx: Db): Promise<void> {
  await trx
    .insertInto('merchants')
    .values({ id: MERCHANT_ID, name: DEFAULT_MERCHANT_NAME })
    .onConflict((oc) => oc.column('id').doNothing())
    .execute();
  await trx.selectFrom('merchants').select('id').where('id', '=', MERCHANT_ID).forUpdate().execute();
}

async function planByCode(trx: Db, code: string): Promise<Package> {
  const plan = await trx
    .selectFrom('packages')
    .selectAll()
    .where('merchant_id', '=', MERCHANT_ID)
    .where('merchant_code', '=', code)
    .executeTakeFirst();
  if (!plan) throw notFound(`There is no plan ${code}.`);
  return plan;
}

/** What the audit log keeps of a plan. */
const auditView = (plan: Package) => ({
  code: plan.merchant_code,
  offer: plan.offer,
  name: { en: plan.name_en, mn: plan.name_mn },
  price: plan.cost,
  months: plan.duration_months,
  seats: plan.max_shared_users + 1,
  onSale: plan.is_active,
  order: plan.sort_order,
  badge: plan.badge_en ? { en: plan.badge_en, mn: plan.badge_mn } : null,
  trialDays: plan.trial_days,
});

/** A new plan on sale, last in the order. A code is a plan's for life: one in use is refused (409). */
export async function createPlan(deps: PlanDeps, operatorId: string, input: PlanCreate): Promise<void> {
  const now = deps.clock.now();
  await deps.db.transaction().execute(async (trx) => {
    await lockMerchant(trx);
    const taken = await trx
      .selectFrom('packages')
      .select('id')
      .where('merchant_code', '=', input.code)
      .executeTakeFirst();
    if (taken)
      throw conflict(
        `The code ${input.code} belongs to a plan already; choose another.`,
        API_ERROR_CODES.planExists,
      );
    const last = await trx
      .selectFrom('packages')
      .select((eb) => eb.fn.max('sort_order').as('last'))
      .where('merchant_id', '=', MERCHANT_ID)
      .executeTakeFirst();
    const plan = await trx
      .insertInto('packages')
      .values({
        merchant_id: MERCHANT_ID,
        merchant_code: input.code,
        offer: input.offer,
        name_en: input.nameEn,
        name_mn: input.nameMn,
        description_en: input.descriptionEn,
        description_mn: input.descriptionMn,
        cost: input.price,
        original_cost: null,
        currency: PAYMENT_CURRENCY,
        duration_months: input.months,
        allow_share: input.seats > 1,
        max_shared_users: input.seats - 1,
        is_active: true,
        sort_order: Number(last?.last ?? 0) + 1,
        trial_days: input.trialDays,
      })
      .returningAll()
      .executeTakeFirstOrThrow();
    await audit(trx, now, {
      operatorId,
      action: 'plan.create',
      targetType: 'plan',
      targetId: plan.merchant_code,
      after: auditView(plan),
    });
  });
}

/**
 * Takes a plan off sale (`onSale: false`: no new sales; subscribers keep and renew it until they
 * change) or puts it back on sale.
 */
export async function setOnSale(deps: PlanDeps, operatorId: string, code: string, onSale: boolean) {
  const now = deps.clock.now();
  await deps.db.transaction().execute(async (trx) => {
    await lockMerchant(trx);
    const before = await planByCode(trx, code);
    if (before.is_active === onSale) return;
    const after = await trx
      .updateTable('packages')
      .set({ is_active: onSale })
      .where('id', '=', before.id)
      .returningAll()
      .executeTakeFirstOrThrow();
    await audit(trx, now, {
      operatorId,
      action: onSale ? 'plan.restore' : 'plan.retire',
      targetType: 'plan',
      targetId: code,
      before: auditView(before),
      after: auditView(after),
    });
  });
}

/**
 * The merchant's plans in a new order. `codes` must name every plan the console showed, each
 * once: a list made before another change (a plan added meanwhile) is refused (409), so an
 * order is never half of one list and half of another.
 */
export async function reorderPlans(deps: PlanDeps, operatorId: string, codes: string[]) {
  const now = deps.clock.now();
  await deps.db.transaction().execute(async (trx) => {
    await lockMerchant(trx);
    const rows = await trx
      .selectFrom('packages')
      .select(['id', 'merchant_code', 'sort_order'])
      .where('merchant_id', '=', MERCHANT_ID)
      .orderBy('sort_order')
      .orderBy('id')
      .execute();
    const known = new Set(rows.map((row) => row.merchant_code));
    if (codes.length !== rows.length || codes.some((code) => !known.has(code))) {
      throw conflict(
        'The plans changed since this list was loaded; reload and order them again.',
        API_ERROR_CODES.plansChanged,
      );
    }
    const byCode = new Map(rows.map((row) => [row.merchant_code, row]));
    for (const [index, code] of codes.entries()) {
      const row = byCode.get(code);
      if (row && row.sort_order !== index + 1) {
        await trx
          .updateTable('packages')
          .set({ sort_order: index + 1 })
          .where('id', '=', row.id)
          .execute();
      }
    }
    await audit(trx, now, {
      operatorId,
      action: 'plan.reorder',
      targetType: 'plan',
      before: rows.map((row) => row.merchant_code),
      after: codes,
    });
  });
}

/** A plan's badge in both languages, or none (both empty). */
export async function setBadge(
  deps: PlanDeps,
  operatorId: string,
  code: string,
  badge: { en: string; mn: string },
) {
  const now = deps.clock.now();
  await deps.db.transaction().execute(async (trx) => {
    await lockMerchant(trx);
    const before = await planByCode(trx, code);
    const after = await trx
      .updateTable('packages')
      .set({ badge_en: badge.en || null, badge_mn: badge.mn || null })
      .where('id', '=', before.id)
      .returningAll()
      .executeTakeFirstOrThrow();
    await audit(trx, now, {
      operatorId,
      action: 'plan.badge',
      targetType: 'plan',
      targetId: code,
      before: auditView(before).badge,
      after: auditView(after).badge,
    });
  });
}

/** A plan's free days for a first-time trial (0: none); trials already begun keep theirs. */
export async function setTrialDays(deps: PlanDeps, operatorId: string, code: string, trialDays: number) {
  const now = deps.clock.now();
  await deps.db.transaction().execute(async (trx) => {
    await lockMerchant(trx);
    const before = await planByCode(trx, code);
    if (before.trial_days === trialDays) return;
    await trx.updateTable('packages').set({ trial_days: trialDays }).where('id', '=', before.id).execute();
    await audit(trx, now, {
      operatorId,
      action: 'plan.trial',
      targetType: 'plan',
      targetId: code,
      before: { trialDays: before.trial_days },
      after: { trialDays },
    });
  });
}

/**
 * A plan's new price: new sales pay it at once; a rise reaches current subscribers at their first
 * renewal at least 30 days from now, and each is told twice (prices/price-notices.ts). A struck
 * price no longer above the new one is dropped.
 */
export async function changePrice(
  deps: PlanDeps,
  operatorId: string,
  code: string,
  price: number,
): Promise<PriceChange> {
  const now = deps.clock.now();
  return deps.db.transaction().execute(async (trx) => {
    await lockMerchant(trx);
    const before = await planByCode(trx, code);
    if (before.cost === price) {
      throw conflict(`${code} costs ${price} already.`, API_ERROR_CODES.priceUnchanged);
    }
    const after = await trx
      .updateTable('packages')
      .set({
        cost: price,
        original_cost:
          before.original_cost !== null && before.original_cost > price ? before.original_cost : null,
      })
      .where('id', '=', before.id)
      .returningAll()
      .executeTakeFirstOrThrow();
    const change = await schedulePriceChange(trx, now, {
      packageId: before.id,
      previousCost: before.cost,
      cost: price,
      operatorId,
    });
    await audit(trx, now, {
      operatorId,
      action: 'plan.price',
      targetType: 'plan',
      targetId: code,
      before: { price: before.cost, originalPrice: before.original_cost },
      after: {
        price: after.cost,
        originalPrice: after.original_cost,
        takesEffectAt: change.takesEffectAt.toISOString(),
        notices: change.notices,
      },
    });
    return change;
  });
}
