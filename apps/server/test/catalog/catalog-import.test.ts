import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { applyDemoSeeds } from '../../src/db/seed.js';
import { demoSeeds } from '../../src/demo-seeds.js';
import { CatalogRefused, demoCatalog } from '../../src/modules/catalog/catalog-file.js';
import { changedNothing, importCatalog } from '../../src/modules/catalog/catalog-import.js';
import type { CatalogFileInput } from '../../src/modules/catalog/catalog-schema.js';
import { readContentRevision } from '../../src/modules/content/content-store.js';
import { createSubscription, createUser, shopper } from '../helpers/factories.js';
import { checkout } from '../helpers/premium.js';
import { createTestApp, type TestApp } from '../helpers/test-app.js';

/** A copy of the demo catalog to change: the file an operator starts from. */
const catalog = (): CatalogFileInput => structuredClone(demoCatalog());

const planRows = (t: TestApp) => t.db.selectFrom('packages').selectAll().orderBy('id').execute();

/** Everything an import may write, to compare before and after. */
async function snapshot(t: TestApp) {
  return {
    merchants: await t.db.selectFrom('merchants').selectAll().execute(),
    packages: await planRows(t),
    landing: await t.db.selectFrom('content_landing').selectAll().execute(),
    cards: await t.db.selectFrom('content_cards').selectAll().orderBy('id').execute(),
    revision: await readContentRevision(t.deps),
  };
}

async function refusal(t: TestApp, input: unknown): Promise<CatalogRefused> {
  const error = await importCatalog(t.deps, input).then(
    () => null,
    (thrown: unknown) => thrown,
  );
  expect(error).toBeInstanceOf(CatalogRefused);
  return error as CatalogRefused;
}

describe('catalog:import on an empty database', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(async () => {
    await t.close();
  });

  it('adds the plans, prices, seats and landing content of a catalog in one run', async () => {
    const report = await importCatalog(t.deps, catalog());
    expect(report).toMatchObject({
      merchant: 'added',
      plans: {
        added: ['PREMIUM_1M', 'PREMIUM_DUO_1M', 'PREMIUM_FAMILY_1M', 'PREMIUM_1M_USD', 'PREMIUM_12M'],
        changed: [],
        retired: [],
        notSold: [
          { code: 'PREMIUM_1M_USD', reason: expect.stringContaining('currency USD') },
          { code: 'PREMIUM_12M', reason: expect.stringContaining('offer premium-annual') },
        ],
      },
      content: { outcome: 'imported', revision: 1, cards: { ARTIST: 8, SONG: 12, PLAYLIST: 8 } },
    });
    const family = (await planRows(t)).find((row) => row.merchant_code === 'PREMIUM_FAMILY_1M');
    expect(family).toMatchObject({
      merchant_id: 14,
      cost: 17_900,
      original_cost: 27_600,
      allow_share: true,
      max_shared_users: 3,
      name_mn: 'Премиум Гэр бүл',
      is_active: true,
      sort_order: 3,
    });
    const mn = await t.app.inject({ method: 'GET', url: '/api/landing-page?lang=mn' });
    expect(mn.json()).toMatchObject({ result: { bannerDescMn: { title: 'Мөч бүрт зориулсан хөгжим' } } });
  });

  it('changes nothing when the same file runs again', async () => {
    const before = await snapshot(t);
    const report = await importCatalog(t.deps, catalog());
    expect(changedNothing(report)).toBe(true);
    expect(report.plans.unchanged).toHaveLength(5);
    expect(report.content).toEqual({ outcome: 'unchanged' });
    expect(await snapshot(t)).toEqual(before);
  });

  it('updates what a changed file changes and nothing else', async () => {
    const before = await planRows(t);
    const changed = catalog();
    const [premium, duo] = changed.plans;
    if (!premium || !duo) throw new Error('the demo catalog lost its first plans');
    premium.price = 7900;
    duo.name = { en: 'Premium Duo', mn: 'Премиум Хос' };
    duo.seats = 3;
    const report = await importCatalog(t.deps, changed);
    expect(report.plans.changed).toEqual([
      { code: 'PREMIUM_1M', fields: ['price'] },
      { code: 'PREMIUM_DUO_1M', fields: ['name', 'seats'] },
    ]);
    expect(report.content).toEqual({ outcome: 'unchanged' });
    const after = await planRows(t);
    expect(after.map((row) => row.id)).toEqual(before.map((row) => row.id));
    expect(after[0]).toEqual({ ...before[0], cost: 7900 });
    expect(after[1]).toEqual({
      ...before[1],
      name_mn: 'Премиум Хос',
      max_shared_users: 2,
      allow_share: true,
    });
    expect(after.slice(2)).toEqual(before.slice(2));
  });

  it('retires a plan the file leaves out, never deletes it, and its subscriber keeps and renews it', async () => {
    const annual = (await planRows(t)).find((row) => row.merchant_code === 'PREMIUM_12M');
    if (!annual) throw new Error('no annual plan');
    const owner = await createUser(t.db);
    const period = await createSubscription(t.db, owner.id, annual, { autoRenew: true });

    const withoutAnnual = catalog();
    withoutAnnual.plans = withoutAnnual.plans.filter((plan) => plan.code !== 'PREMIUM_12M');
    const report = await importCatalog(t.deps, withoutAnnual);
    expect(report.plans.retired).toEqual(['PREMIUM_12M']);
    const kept = await t.db.selectFrom('packages').selectAll().where('id', '=', annual.id).executeTakeFirst();
    expect(kept).toEqual({ ...annual, is_active: false });
    const subscription = await t.db
      .selectFrom('subscriptions')
      .select(['package_id', 'is_auto_renew'])
      .where('id', '=', period.id)
      .executeTakeFirstOrThrow();
    expect(subscription).toEqual({ package_id: annual.id, is_auto_renew: true });

    // No new sales: a checkout of it is refused as an unknown plan.
    const buyer = await shopper(t);
    const answer = await checkout(t, buyer.headers, { MerchantCode: 'PREMIUM_12M' });
    expect(answer.statusCode).toBe(400);

    // Listed again, it is on sale again, with the same row.
    const again = await importCatalog(t.deps, catalog());
    expect(again.plans.changed).toContainEqual({ code: 'PREMIUM_12M', fields: ['onSale'] });
    expect((await planRows(t)).find((row) => row.id === annual.id)?.is_active).toBe(true);
  });

  it('retires a plan marked onSale: false, keeping its definition in the file', async () => {
    const file = catalog();
    const usd = file.plans.find((plan) => plan.code === 'PREMIUM_1M_USD');
    if (!usd) throw new Error('no USD plan');
    usd.onSale = false;
    expect((await importCatalog(t.deps, file)).plans.retired).toEqual(['PREMIUM_1M_USD']);
    expect(changedNothing(await importCatalog(t.deps, file))).toBe(true);
  });
});

describe('a refused catalog', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
    await importCatalog(t.deps, catalog());
  });
  afterAll(async () => {
    await t.close();
  });

  it('names each bad entry by its path and writes nothing', async () => {
    const before = await snapshot(t);
    const file = catalog() as Record<string, unknown> & CatalogFileInput;
    const plans = file.plans as Record<string, unknown>[];
    plans[0] = { ...plans[0], price: 5000 }; // a good change that must not be written either
    plans[2] = { ...plans[2], price: 'cheap' };
    plans[1] = { ...plans[1], prise: 9900 };
    plans[3] = { ...plans[3], code: 'PREMIUM_1M' };
    plans[4] = { ...plans[4], originalPrice: 100 };
    const content = file.content as { cards: Record<string, unknown>[] };
    content.cards[1] = { ...content.cards[1], tunesUrl: 'javascript:alert(1)' };

    const { problems } = await refusal(t, file);
    expect(problems).toEqual(
      expect.arrayContaining([
        { path: 'plans[2].price', message: 'must be a whole number (6900 for 6,900 ₮)' },
        { path: 'plans[1].prise', message: 'is not a known field' },
        { path: 'plans[3].code', message: 'PREMIUM_1M is already plans[0].code' },
        {
          path: 'plans[4].originalPrice',
          message: expect.stringContaining('must be more than price (69000)'),
        },
        { path: 'content.cards[1].tunesUrl', message: 'must be an http(s) URL' },
      ]),
    );
    expect(await snapshot(t)).toEqual(before);
  });

  it('refuses a missing field and an empty plan list by name', async () => {
    const noSeats: Record<string, unknown> = { ...catalog().plans[0] };
    delete noSeats.seats;
    expect((await refusal(t, { plans: [noSeats] })).problems).toEqual([
      { path: 'plans[0].seats', message: 'is required' },
    ]);
    expect((await refusal(t, { plans: [] })).problems).toEqual([
      { path: 'plans', message: 'must list at least one plan' },
    ]);
    expect((await refusal(t, [])).problems[0]?.path).toBe('(file)');
  });

  it('refuses a sold plan a new currency or length, and fewer seats than a family fills, writing nothing', async () => {
    const family = (await planRows(t)).find((row) => row.merchant_code === 'PREMIUM_FAMILY_1M');
    if (!family) throw new Error('no family plan');
    const owner = await createUser(t.db);
    const period = await createSubscription(t.db, owner.id, family, { start: t.clock.now() });
    for (let index = 0; index < 3; index++) {
      const member = await createUser(t.db);
      await t.db
        .insertInto('subscription_members')
        .values({ subscription_id: period.id, user_id: member.id })
        .execute();
    }
    const before = await snapshot(t);
    const file = catalog();
    const [premium, , familyPlan] = file.plans;
    if (!premium || !familyPlan) throw new Error('the demo catalog lost its first plans');
    file.plans.push({ ...structuredClone(premium), code: 'PREMIUM_NEW' }); // would be added
    familyPlan.seats = 3;
    familyPlan.currency = 'USD';
    familyPlan.months = 12;
    const { problems } = await refusal(t, file);
    expect(problems.map((problem) => problem.path)).toEqual([
      'plans[2].currency',
      'plans[2].months',
      'plans[2].seats',
    ]);
    expect(problems[2]?.message).toMatch(/1 current subscription\(s\) of PREMIUM_FAMILY_1M have more than 2/);
    expect(await snapshot(t)).toEqual(before);
  });

  it('takes a new price for new sales at once and schedules it with notice for a current subscriber', async () => {
    const duo = (await planRows(t)).find((row) => row.merchant_code === 'PREMIUM_DUO_1M');
    if (!duo) throw new Error('no duo plan');
    const owner = await createUser(t.db);
    const period = await createSubscription(t.db, owner.id, duo, { start: t.clock.now(), autoRenew: true });
    const file = catalog();
    const duoPlan = file.plans.find((plan) => plan.code === 'PREMIUM_DUO_1M');
    if (!duoPlan) throw new Error('the demo catalog lost its duo plan');
    duoPlan.price = duo.cost + 1000;
    const report = await importCatalog(t.deps, file);
    expect(report.plans.changed).toContainEqual({ code: 'PREMIUM_DUO_1M', fields: ['price'] });
    expect(report.plans.priceChanges).toEqual([
      {
        code: 'PREMIUM_DUO_1M',
        from: duo.cost,
        to: duo.cost + 1000,
        takesEffectAt: new Date(t.clock.now().getTime() + 30 * 86_400_000).toISOString(),
        notices: 1,
      },
    ]);
    const notice = await t.db
      .selectFrom('price_notices')
      .select(['previous_cost', 'cost'])
      .where('subscription_id', '=', period.id)
      .executeTakeFirstOrThrow();
    expect(notice).toEqual({ previous_cost: duo.cost, cost: duo.cost + 1000 });
    // The same file again changes nothing and gives no second notice.
    const again = await importCatalog(t.deps, file);
    expect(again.plans.priceChanges).toEqual([]);
  });
});

describe('the demo catalog (catalog/demo.yaml)', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
    await applyDemoSeeds(t.db, demoSeeds);
  });
  afterAll(async () => {
    await t.close();
  });

  it('is what the demo seeds load: importing it on a seeded database changes nothing', async () => {
    const before = await snapshot(t);
    const report = await importCatalog(t.deps, demoCatalog());
    expect(changedNothing(report)).toBe(true);
    expect(await snapshot(t)).toEqual(before);
  });

  it('points only at images the server serves', async () => {
    const { content } = demoCatalog();
    const images = [content?.landing.musicVideoImage, ...(content?.cards ?? []).map((card) => card.image)];
    expect(images).toHaveLength(29);
    for (const image of images) {
      const answer = await t.app.inject({ method: 'GET', url: image ?? '' });
      expect(answer.statusCode, image).toBe(200);
    }
  });
});
