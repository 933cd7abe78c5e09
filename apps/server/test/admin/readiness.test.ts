import type { Readiness, ReadinessCheck } from '@tunes/shared/readiness';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { demoCatalog } from '../../src/modules/catalog/catalog-file.js';
import { importCatalog } from '../../src/modules/catalog/catalog-import.js';
import type { CatalogFileInput } from '../../src/modules/catalog/catalog-schema.js';
import { consoleCall, signedInOperator } from '../helpers/console.js';
import { createTestApp, type TestApp } from '../helpers/test-app.js';

/** The console's first-run panel: `GET /api/admin/readiness` (docs/console-api.md §5). */

let t: TestApp;
let admin: string;
beforeAll(async () => {
  t = await createTestApp();
  admin = (await signedInOperator(t, 'admin')).cookie;
});
afterAll(async () => {
  await t.close();
});

async function readinessNow(): Promise<Readiness & { byId: Record<string, ReadinessCheck> }> {
  const answer = await consoleCall(t, admin, 'GET', '/api/admin/readiness');
  expect(answer.statusCode, answer.body).toBe(200);
  const body = answer.json() as Readiness;
  return { ...body, byId: Object.fromEntries(body.checks.map((check) => [check.id, check])) };
}

const catalog = (): CatalogFileInput => structuredClone(demoCatalog());

describe('GET /api/admin/readiness', () => {
  it('is for admins: 401 signed out, 403 for another role', async () => {
    expect((await t.app.inject({ method: 'GET', url: '/api/admin/readiness' })).statusCode).toBe(401);
    const support = await signedInOperator(t, 'support');
    expect((await consoleCall(t, support.cookie, 'GET', '/api/admin/readiness')).statusCode).toBe(403);
  });

  it('on an empty site: no plans and no landing content in either language, with the command to run', async () => {
    const { ready, checks, byId } = await readinessNow();
    expect(ready).toBe(false);
    expect(checks.map((check) => check.id)).toEqual([
      'plans',
      'landing-en',
      'landing-mn',
      'card-payments',
      'qpay',
      'ebarimt',
      'sms',
      'email',
      'operators',
      'public-url',
      'demo-data',
    ]);
    const importCommand = 'npm run admin -- catalog:import <catalog.yaml>';
    expect(byId.plans).toEqual({
      id: 'plans',
      status: 'missing',
      reason: 'none',
      count: 0,
      command: importCommand,
    });
    expect(byId['landing-en']).toEqual({
      id: 'landing-en',
      status: 'missing',
      reason: 'none',
      command: importCommand,
    });
    expect(byId['landing-mn']).toMatchObject({ status: 'missing', reason: 'none' });
    // Development: the built-in sandboxes, messages only in the outbox, one admin, a localhost address.
    expect(byId['card-payments']).toMatchObject({ status: 'notice', reason: 'sandbox' });
    expect(byId.qpay).toMatchObject({ status: 'notice', reason: 'sandbox' });
    expect(byId.sms).toMatchObject({
      status: 'notice',
      reason: 'not-configured',
      variables: ['SMS_PROVIDER_URL', 'SMS_PROVIDER'],
    });
    expect(byId.operators).toEqual({
      id: 'operators',
      status: 'notice',
      reason: 'single-admin',
      count: 1,
      command: 'npm run admin -- operators:add --email <e-mail> --role admin',
    });
    expect(byId['public-url']).toMatchObject({ status: 'notice', reason: 'localhost' });
    expect(byId['demo-data']).toEqual({ id: 'demo-data', status: 'ok' });
  });

  it('is ready once a catalog is imported', async () => {
    await importCatalog(t.deps, catalog());
    const { ready, byId } = await readinessNow();
    expect(ready).toBe(true);
    expect(byId.plans).toEqual({ id: 'plans', status: 'ok', count: 3 });
    expect(byId['landing-en']).toEqual({ id: 'landing-en', status: 'ok', count: 28 });
    expect(byId['landing-mn']).toEqual({ id: 'landing-mn', status: 'ok', count: 28 });
  });

  it('says which card rows are empty and how many texts Mongolian listeners read in English', async () => {
    const file = catalog();
    const content = file.content;
    if (!content) throw new Error('the demo catalog has content');
    content.cards = content.cards
      .filter((card) => card.type !== 'PLAYLIST')
      .map((card, index) => (index < 2 ? { ...card, titleMn: undefined } : card));
    const [first] = content.landing.reels;
    if (first) first.descriptionMn = undefined;
    await importCatalog(t.deps, file);
    const { ready, byId } = await readinessNow();
    expect(ready).toBe(true);
    expect(byId['landing-en']).toMatchObject({
      status: 'notice',
      reason: 'empty-card-types',
      names: ['PLAYLIST'],
    });
    expect(byId['landing-mn']).toMatchObject({ status: 'notice', reason: 'untranslated', count: 3 });
  });

  it('has nothing on sale when every plan /premium sells is retired', async () => {
    const file = catalog();
    file.plans = file.plans.map((plan) => ({ ...plan, onSale: plan.currency !== 'MNT' }));
    await importCatalog(t.deps, file);
    const { ready, byId } = await readinessNow();
    expect(ready).toBe(false);
    expect(byId.plans).toMatchObject({ status: 'missing', reason: 'retired-only', count: 0 });
  });
});

describe('the console draft and a catalog import', () => {
  const bannerTitle = async () => {
    const answer = await consoleCall(t, admin, 'GET', '/api/admin/content');
    const body = answer.json() as { landing: { banner: { title: { en: string } } }; changed: boolean };
    return { title: body.landing.banner.title.en, changed: body.changed };
  };

  it('an untouched draft follows the import; one an operator is editing is kept', async () => {
    await importCatalog(t.deps, catalog());
    expect(await bannerTitle()).toEqual({ title: 'Music for every moment', changed: false });

    const retitled = catalog();
    if (retitled.content) retitled.content.landing.bannerDescEn.title = 'Music all day';
    await importCatalog(t.deps, retitled);
    expect(await bannerTitle()).toEqual({ title: 'Music all day', changed: false });

    const draft = (await consoleCall(t, admin, 'GET', '/api/admin/content')).json() as { landing: unknown };
    const edited = structuredClone(draft.landing) as { banner: { title: { en: string } } };
    edited.banner.title.en = 'An operator’s title';
    expect((await consoleCall(t, admin, 'PUT', '/api/admin/content/landing', edited)).statusCode).toBe(200);
    await importCatalog(t.deps, catalog());
    expect(await bannerTitle()).toEqual({ title: 'An operator’s title', changed: true });
  });
});
