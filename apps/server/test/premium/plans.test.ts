import { brotliDecompressSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { STORE, withPlans } from '../helpers/factories.js';
import { createTestApp, type TestApp } from '../helpers/test-app.js';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
  await withPlans(t);
});
afterAll(async () => {
  await t.close();
});

describe('merchants and plans', () => {
  it('lists merchant 14', async () => {
    const response = await t.app.inject({ method: 'GET', url: '/api/merchants', headers: STORE });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual([{ MerchantId: 14, Name: 'Tunes' }]);
  });

  it('answers the three MNT plans of product.md §9 with their prices, old prices and seats, plus the plans the page hides', async () => {
    const response = await t.app.inject({
      method: 'GET',
      url: '/api/packages/allplans',
      query: { merchantId: '14' },
      headers: STORE,
    });
    expect(response.statusCode).toBe(200);
    const plans = response.json() as { MerchantCode: string; Cost: number; OriginalCost: number | null }[];
    expect(plans.slice(0, 3)).toMatchObject([
      {
        MerchantCode: 'PREMIUM_1M',
        Cost: 6900,
        OriginalCost: null,
        Currency: 'MNT',
        MaxSharedUsers: 0,
        AllowShare: false,
      },
      {
        MerchantCode: 'PREMIUM_DUO_1M',
        Cost: 9900,
        OriginalCost: 13800,
        Currency: 'MNT',
        MaxSharedUsers: 1,
        AllowShare: true,
      },
      {
        MerchantCode: 'PREMIUM_FAMILY_1M',
        Cost: 17900,
        OriginalCost: 27600,
        Currency: 'MNT',
        MaxSharedUsers: 3,
        AllowShare: true,
      },
    ]);
    expect(plans.map((plan) => plan.MerchantCode)).toEqual(
      expect.arrayContaining(['PREMIUM_1M_USD', 'PREMIUM_12M']),
    );
    expect(plans[0]).toMatchObject({
      Name: [
        { Language: 'en', Value: 'Premium' },
        { Language: 'mn', Value: 'Премиум' },
      ],
    });
  });

  it('sends the plans compressed, answers 304 to their ETag, and shows a changed price within a minute', async () => {
    const plans = (headers: Record<string, string> = {}) =>
      t.app.inject({
        method: 'GET',
        url: '/api/packages/allplans',
        query: { merchantId: '14' },
        headers: { ...STORE, ...headers },
      });
    const plain = await plans();
    const br = await plans({ 'accept-encoding': 'br, gzip' });
    expect(br.headers['content-encoding']).toBe('br');
    expect(JSON.parse(brotliDecompressSync(br.rawPayload).toString())).toEqual(plain.json());
    expect(br.headers.etag).toBe(plain.headers.etag);
    expect((await plans({ 'if-none-match': String(plain.headers.etag) })).statusCode).toBe(304);

    const before = (plain.json() as { MerchantCode: string; Cost: number }[])[0];
    await t.db
      .updateTable('packages')
      .set({ cost: 7900 })
      .where('merchant_code', '=', 'PREMIUM_1M')
      .execute();
    try {
      t.clock.advance(60_000);
      const after = await plans();
      expect(after.json()[0]).toMatchObject({ MerchantCode: 'PREMIUM_1M', Cost: 7900 });
      expect(after.headers.etag).not.toBe(plain.headers.etag);
    } finally {
      await t.db
        .updateTable('packages')
        .set({ cost: before?.Cost ?? 6900 })
        .where('merchant_code', '=', 'PREMIUM_1M')
        .execute();
      t.clock.advance(60_000);
    }
  });

  it('refuses a merchant id that is not a number, naming the field', async () => {
    const response = await t.app.inject({
      method: 'GET',
      url: '/api/packages/allplans',
      query: { merchantId: 'abc' },
      headers: STORE,
    });
    expect(response.statusCode).toBe(400);
    expect(response.json()).toMatchObject({ field: 'merchantId' });
  });

  it('answers 404 for an unknown merchant', async () => {
    const response = await t.app.inject({
      method: 'GET',
      url: '/api/packages/allplans',
      query: { merchantId: '999' },
      headers: STORE,
    });
    expect(response.statusCode).toBe(404);
    expect(response.json().message).toMatch(/merchant 999/);
  });
});
