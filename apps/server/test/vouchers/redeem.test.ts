import {
  VOUCHER_ACTIVATED_MESSAGE,
  VOUCHER_ALREADY_SUBSCRIBED_MESSAGE,
  VOUCHER_INVALID_MESSAGE,
} from '@tunes/shared/vouchers';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { listUserSubscriptions } from '../../src/modules/subscriptions/queries.js';
import { createVouchers } from '../../src/modules/vouchers/voucher-codes.js';
import {
  createPackage,
  createSubscription,
  createUser,
  DAY_MS,
  singlePackage,
  siteHeaders,
} from '../helpers/factories.js';
import { createTestApp, type TestApp } from '../helpers/test-app.js';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => {
  await t.close();
});

async function redeem(userId: string | undefined, code: string) {
  return t.app.inject({
    method: 'POST',
    url: `/api/users/redeemvoucher?code=${encodeURIComponent(code)}`,
    headers: await siteHeaders(t, userId),
  });
}

async function vouchers(count = 1, options: { days?: number; expiresAt?: string } = {}) {
  const pkg = await singlePackage(t.db);
  const { codes } = await createVouchers(t.deps, {
    package: pkg.merchant_code,
    days: options.days ?? 30,
    count,
    expiresAt: options.expiresAt,
  });
  return { pkg, codes };
}

describe('redeeming a voucher', () => {
  it("activates the voucher's package for its days; a second use fails", async () => {
    const { pkg, codes } = await vouchers(1, { days: 30 });
    const code = codes[0] ?? '';
    expect(code).toMatch(/^[A-Z0-9]{4}-[A-Z0-9]{4}-[A-Z0-9]{4}$/);
    const user = await createUser(t.db);

    const response = await redeem(user.id, code.toLowerCase());
    expect(response.statusCode).toBe(200);
    const body = response.json();
    expect(body.Message).toBe(VOUCHER_ACTIVATED_MESSAGE);
    expect(new Date(body.EndDate).getTime() - new Date(body.StartDate).getTime()).toBe(30 * DAY_MS);

    const [subscription] = await listUserSubscriptions(t.db, user.id, t.clock.now());
    expect(subscription).toMatchObject({
      SubscriptionId: body.SubscriptionId,
      Role: 'owner',
      IsAutoRenew: false,
      Source: { SourceType: 'Voucher' },
      PackageCost: { MerchantCode: pkg.merchant_code },
    });

    const again = await redeem((await createUser(t.db)).id, code);
    expect(again.statusCode).toBe(400);
    expect(again.json()).toMatchObject({ error: 'voucher_invalid', message: VOUCHER_INVALID_MESSAGE });
  });

  it('the period ends after the voucher days', async () => {
    const { codes } = await vouchers(1, { days: 7 });
    const user = await createUser(t.db);
    expect((await redeem(user.id, codes[0] ?? '')).statusCode).toBe(200);
    t.clock.advance(7 * DAY_MS + 1000);
    expect(await listUserSubscriptions(t.db, user.id, t.clock.now())).toEqual([]);
  });

  it('an already-subscribed user gets the spec message and the voucher stays unused', async () => {
    const { codes } = await vouchers(1);
    const user = await createUser(t.db);
    await createSubscription(t.db, user.id, await createPackage(t.db), { start: t.clock.now() });
    const response = await redeem(user.id, codes[0] ?? '');
    expect(response.statusCode).toBe(400);
    expect(response.json()).toMatchObject({
      error: 'already_subscribed',
      message: VOUCHER_ALREADY_SUBSCRIBED_MESSAGE,
    });
    expect((await redeem((await createUser(t.db)).id, codes[0] ?? '')).statusCode).toBe(200);
  });

  it('an expired voucher is not valid', async () => {
    const expiresAt = new Date(t.clock.now().getTime() + DAY_MS).toISOString();
    const { codes } = await vouchers(1, { expiresAt });
    t.clock.advance(DAY_MS);
    expect((await redeem((await createUser(t.db)).id, codes[0] ?? '')).json()).toMatchObject({
      error: 'voucher_invalid',
    });
  });

  it('a code breaking the pattern is refused with 400 naming the field, and is not counted', async () => {
    const user = await createUser(t.db);
    for (const code of ['', 'ABCD EFGH', 'ABCD_EFGH', 'A'.repeat(16), 'ÄBC']) {
      const response = await redeem(user.id, code);
      expect(response.statusCode, code).toBe(400);
      expect(response.json()).toMatchObject({ field: 'code' });
    }
    const missing = await t.app.inject({
      method: 'POST',
      url: '/api/users/redeemvoucher',
      headers: await t.authHeader(user.id),
    });
    expect(missing.statusCode).toBe(400);
    expect(missing.json()).toMatchObject({ field: 'code' });
    const { codes } = await vouchers(1);
    expect((await redeem(user.id, codes[0] ?? '')).statusCode).toBe(200);
  });

  it('a token of a deleted account is refused with 401 and the voucher stays unused', async () => {
    const { codes } = await vouchers(1);
    const gone = await createUser(t.db);
    const headers = await t.authHeader(gone.id);
    await t.db.deleteFrom('users').where('id', '=', gone.id).execute();
    const response = await t.app.inject({
      method: 'POST',
      url: `/api/users/redeemvoucher?code=${codes[0]}`,
      headers,
    });
    expect(response.statusCode).toBe(401);
    expect((await redeem((await createUser(t.db)).id, codes[0] ?? '')).statusCode).toBe(200);
  });

  it('requires a signed-in user', async () => {
    expect((await redeem(undefined, 'ABCD-EFGH-JKMN')).statusCode).toBe(401);
  });

  it('many users redeeming one voucher at once: exactly one gets it', async () => {
    const { codes } = await vouchers(1);
    const people = await Promise.all(Array.from({ length: 20 }, () => createUser(t.db)));
    const responses = await Promise.all(people.map((person) => redeem(person.id, codes[0] ?? '')));
    expect(responses.filter((r) => r.statusCode === 200)).toHaveLength(1);
    expect(responses.filter((r) => r.statusCode === 400)).toHaveLength(19);
  });

  it('the coupon-service follow-up is recorded (not sent) without COUPON_SERVICE_URL', async () => {
    const { codes } = await vouchers(1);
    const user = await createUser(t.db, { phone_number: '97699887766' });
    await redeem(user.id, codes[0] ?? '');
    const notices = await t.db
      .selectFrom('coupon_notifications')
      .selectAll()
      .where('coupon_code', '=', codes[0] ?? '')
      .execute();
    expect(notices).toEqual([
      expect.objectContaining({ msisdn: '97699887766', coupon_code: codes[0], status: 'recorded' }),
    ]);
  });
});

describe('guessing vouchers', () => {
  it('five wrong codes within an hour of the first hold the account back until that hour ends', async () => {
    const user = await createUser(t.db);
    const { codes } = await vouchers(1);
    for (let i = 0; i < 4; i++) {
      expect((await redeem(user.id, `WRONG-${i}`)).statusCode).toBe(400);
      t.clock.advance(10 * 60 * 1000);
    }
    expect((await redeem(user.id, 'WRONG-5')).statusCode).toBe(400);

    // Even the right code is refused while held back: 20 minutes are left of the hour.
    const locked = await redeem(user.id, codes[0] ?? '');
    expect(locked.statusCode).toBe(429);
    expect(Number(locked.headers['retry-after'])).toBe(20 * 60);

    t.clock.advance(20 * 60 * 1000 - 1000);
    expect((await redeem(user.id, codes[0] ?? '')).statusCode).toBe(429);
    t.clock.advance(1000);
    expect((await redeem(user.id, codes[0] ?? '')).statusCode).toBe(200);
  });

  it('wrong codes spread over more than an hour do not lock', async () => {
    const user = await createUser(t.db);
    for (let i = 0; i < 8; i++) {
      expect((await redeem(user.id, `SLOW-${i}`)).statusCode).toBe(400);
      t.clock.advance(20 * 60 * 1000);
    }
  });

  it('concurrent guesses cannot slip past the lockout', async () => {
    const user = await createUser(t.db);
    const responses = await Promise.all(Array.from({ length: 20 }, (_, i) => redeem(user.id, `RACE-${i}`)));
    expect(responses.filter((r) => r.statusCode === 400)).toHaveLength(5);
    expect(responses.filter((r) => r.statusCode === 429)).toHaveLength(15);
  });

  it('the lockout is per account', async () => {
    const guesser = await createUser(t.db);
    for (let i = 0; i < 5; i++) await redeem(guesser.id, `NOPE-${i}`);
    expect((await redeem(guesser.id, 'NOPE-6')).statusCode).toBe(429);
    const { codes } = await vouchers(1);
    expect((await redeem((await createUser(t.db)).id, codes[0] ?? '')).statusCode).toBe(200);
  });
});
