import { MERCHANT_ID, PAYMENT_CURRENCY } from '@tunes/shared/constants';
import type { ContentType, ParsedContentImport } from '@tunes/shared/content';
import { PREMIUM_OFFERS } from '@tunes/shared/premium-rules';
import type { Insertable, Kysely } from 'kysely';
import type { Database, Package, PackagesTable } from '../../db/schema.js';
import type { Deps } from '../../deps.js';
import { dropUntouchedDraft } from '../console/content-draft.js';
import { readStoredContent, replaceContent } from '../content/content-store.js';
import { schedulePriceChange } from '../prices/price-schedule.js';
import { CatalogRefused, checkCatalog } from './catalog-file.js';
import type { CatalogFile, CatalogPlan, CatalogProblem } from './catalog-schema.js';
import { refusedChanges } from './sold-plan-terms.js';

/**
 * `catalog:import` (docs/operations.md "Catalog"): the plans and landing content of a catalog file
 * applied in one transaction. A plan is found by its code: added, changed where the file differs,
 * retired (no new sales) when the file leaves it out or says `onSale: false`; never deleted, so
 * subscribers keep and renew it. Content is replaced only when it differs. Running a file twice
 * changes nothing the second time; a refused file changes nothing at all.
 */

export const DEFAULT_MERCHANT_NAME = 'Tunes';

/** Every column a catalog sets: all of a plan's but its id and creation time. */
export type PlanRow = Required<Omit<Insertable<PackagesTable>, 'id' | 'created_at'>>;

/** The packages row a catalog plan makes; its place in the file is its place on /premium. */
export function planRow(plan: CatalogPlan, index: number): PlanRow {
  return {
    merchant_id: MERCHANT_ID,
    merchant_code: plan.code,
    offer: plan.offer,
    name_en: plan.name.en,
    name_mn: plan.name.mn,
    description_en: plan.description?.en ?? '',
    description_mn: plan.description?.mn ?? '',
    cost: plan.price,
    original_cost: plan.originalPrice ?? null,
    currency: plan.currency,
    duration_months: plan.months,
    allow_share: plan.seats > 1,
    max_shared_users: plan.seats - 1,
    is_active: plan.onSale,
    sort_order: index + 1,
    badge_en: plan.badge?.en ?? null,
    badge_mn: plan.badge?.mn ?? null,
    trial_days: plan.trialDays,
  };
}

/** The file's name for each column a catalog sets. */
const FIELD_OF: Partial<Record<keyof Package, string>> = {
  offer: 'offer',
  name_en: 'name',
  name_mn: 'name',
  description_en: 'description',
  description_mn: 'description',
  cost: 'price',
  original_cost: 'originalPrice',
  currency: 'currency',
  duration_months: 'months',
  max_shared_users: 'seats',
  allow_share: 'seats',
  is_active: 'onSale',
  sort_order: 'order',
  badge_en: 'badge',
  badge_mn: 'badge',
  trial_days: 'trialDays',
};

export interface CatalogImportReport {
  merchant: 'added' | 'renamed' | 'unchanged';
  plans: {
    added: string[];
    changed: { code: string; fields: string[] }[];
    /** Taken off sale by this import (left out of the file or `onSale: false`). */
    retired: string[];
    unchanged: string[];
    /** Plans of the file /premium does not list (another currency or offer), with the reason. */
    notSold: { code: string; reason: string }[];
    /** New prices: new sales pay them at once, current subscribers from their first renewal on or after `takesEffectAt`. */
    priceChanges: { code: string; from: number; to: number; takesEffectAt: string; notices: number }[];
  };
  content:
    | { outcome: 'absent' | 'unchanged' }
    | { outcome: 'imported'; revision: number; cards: Record<ContentType, number> };
}

/** True when the import changed nothing. */
export const changedNothing = (report: CatalogImportReport) =>
  report.merchant === 'unchanged' &&
  report.plans.added.length + report.plans.changed.length + report.plans.retired.length === 0 &&
  report.content.outcome !== 'imported';

/**
 * Checks `input` (CatalogRefused naming each bad entry) and applies it in one transaction (inside
 * the caller's, when `db` is one: the demo seeds).
 */
export async function importCatalog(
  deps: Pick<Deps, 'db' | 'clock'>,
  input: unknown,
): Promise<CatalogImportReport> {
  const file = checkCatalog(input);
  const now = deps.clock.now();
  return deps.db.isTransaction
    ? applyCatalog(deps.db, now, file)
    : deps.db.transaction().execute((trx) => applyCatalog(trx, now, file));
}

type Db = Kysely<Database>;
type Row = PlanRow;

async function applyCatalog(db: Db, now: Date, file: CatalogFile): Promise<CatalogImportReport> {
  const merchant = await upsertMerchant(db, file.merchant?.name);
  const existing = new Map(
    (
      await db
        .selectFrom('packages')
        .selectAll()
        .where((eb) =>
          eb.or([
            eb('merchant_id', '=', MERCHANT_ID),
            eb(
              'merchant_code',
              'in',
              file.plans.map((plan) => plan.code),
            ),
          ]),
        )
        .execute()
    ).map((row) => [row.merchant_code, row]),
  );

  const problems: CatalogProblem[] = [];
  const inserts: Row[] = [];
  const updates: { id: number; row: Row; previousCost: number }[] = [];
  const report: CatalogImportReport['plans'] = {
    added: [],
    changed: [],
    retired: [],
    unchanged: [],
    notSold: [],
    priceChanges: [],
  };
  for (const [index, plan] of file.plans.entries()) {
    const row = planRow(plan, index);
    const notSold = notSoldReason(plan);
    if (notSold) report.notSold.push({ code: plan.code, reason: notSold });
    const current = existing.get(plan.code);
    if (!current) {
      inserts.push(row);
      report.added.push(plan.code);
      continue;
    }
    if (current.merchant_id !== MERCHANT_ID) {
      problems.push({
        path: `plans[${index}].code`,
        message: `${plan.code} is a plan of merchant ${current.merchant_id}, not of ${MERCHANT_ID}`,
      });
      continue;
    }
    const columns = changedColumns(current, row);
    if (columns.length === 0) {
      report.unchanged.push(plan.code);
      continue;
    }
    problems.push(...(await refusedChanges(db, now, current, row, index, columns)));
    updates.push({ id: current.id, row, previousCost: current.cost });
    const fields = [...new Set(columns.map((column) => FIELD_OF[column] ?? column))];
    if (current.is_active && !plan.onSale) report.retired.push(plan.code);
    const others = fields.filter((field) => field !== 'onSale');
    if (others.length > 0 || !current.is_active) report.changed.push({ code: plan.code, fields });
  }
  if (problems.length > 0) throw new CatalogRefused(problems);

  const listed = new Set(file.plans.map((plan) => plan.code));
  const leftOut = [...existing.values()].filter(
    (row) => row.merchant_id === MERCHANT_ID && row.is_active && !listed.has(row.merchant_code),
  );
  if (inserts.length > 0) await db.insertInto('packages').values(inserts).execute();
  for (const { id, row, previousCost } of updates) {
    await db.updateTable('packages').set(row).where('id', '=', id).execute();
    if (row.cost !== previousCost) {
      const change = await schedulePriceChange(db, now, {
        packageId: id,
        previousCost,
        cost: row.cost,
        operatorId: null,
      });
      report.priceChanges.push({
        code: row.merchant_code,
        from: previousCost,
        to: row.cost,
        takesEffectAt: change.takesEffectAt.toISOString(),
        notices: change.notices,
      });
    }
  }
  if (leftOut.length > 0) {
    await db
      .updateTable('packages')
      .set({ is_active: false })
      .where(
        'id',
        'in',
        leftOut.map((row) => row.id),
      )
      .execute();
    report.retired.push(...leftOut.map((row) => row.merchant_code));
  }

  return { merchant, plans: report, content: await applyContent(db, now, file.content) };
}

async function upsertMerchant(db: Db, name: string | undefined): Promise<CatalogImportReport['merchant']> {
  const added = await db
    .insertInto('merchants')
    .values({ id: MERCHANT_ID, name: name ?? DEFAULT_MERCHANT_NAME })
    .onConflict((oc) => oc.column('id').doNothing())
    .returning('id')
    .executeTakeFirst();
  // Imports at once wait here for each other, so each sees the plans the one before it left.
  const current = await db
    .selectFrom('merchants')
    .select('name')
    .where('id', '=', MERCHANT_ID)
    .forUpdate()
    .executeTakeFirstOrThrow();
  if (added) return 'added';
  if (name === undefined || name === current.name) return 'unchanged';
  await db.updateTable('merchants').set({ name }).where('id', '=', MERCHANT_ID).execute();
  return 'renamed';
}

function changedColumns(current: Package, row: Row): (keyof Package)[] {
  return (Object.keys(row) as (keyof Row)[]).filter(
    (column) => column !== 'merchant_id' && current[column] !== row[column],
  );
}

function notSoldReason(plan: CatalogPlan): string | null {
  if (plan.currency !== PAYMENT_CURRENCY)
    return `currency ${plan.currency}; the site sells in ${PAYMENT_CURRENCY}`;
  if (!(PREMIUM_OFFERS as readonly string[]).includes(plan.offer)) {
    return `offer ${plan.offer}; /premium lists ${PREMIUM_OFFERS.join(', ')}`;
  }
  return null;
}

/** A canonical text of content, so what is stored and what the file says compare exactly. */
function contentKey(content: ParsedContentImport): string {
  const { landing, cards } = content;
  return JSON.stringify({
    bannerDescEn: [landing.bannerDescEn.title, landing.bannerDescEn.description],
    bannerDescMn: [landing.bannerDescMn.title, landing.bannerDescMn.description],
    musicVideo: landing.musicVideo,
    musicVideoImage: landing.musicVideoImage,
    reels: landing.reels.map((reel) => [reel.url, reel.description, reel.descriptionMn ?? null]),
    cards: cards.map((card) => [
      card.type,
      card.title,
      card.titleMn ?? null,
      card.tunesUrl,
      card.image,
      card.trending,
    ]),
  });
}

async function applyContent(
  db: Db,
  now: Date,
  content: ParsedContentImport | undefined,
): Promise<CatalogImportReport['content']> {
  if (!content) return { outcome: 'absent' };
  const stored = await readStoredContent({ db });
  if (stored && contentKey(stored) === contentKey(content)) return { outcome: 'unchanged' };
  await dropUntouchedDraft(db);
  const revision = await replaceContent(db, now, content);
  const cards = { ARTIST: 0, SONG: 0, PLAYLIST: 0 } satisfies Record<ContentType, number>;
  for (const card of content.cards) cards[card.type] += 1;
  return { outcome: 'imported', revision, cards };
}
