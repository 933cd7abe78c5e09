import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { receivePaymentCallback } from '../../src/modules/premium/payment-callback.js';
import { SIGNATURE_HEADER, signCallback } from '../../src/modules/providers/callback-signature.js';
import { PLAN_CODES, shopper, withPlans } from '../helpers/factories.js';
import { startCheckout } from '../helpers/premium.js';
import { createTestApp, type TestApp } from '../helpers/test-app.js';
import { changedTables, snapshotData } from '../quality/helpers/snapshot.js';

/**
 * Issue 10 item 7: anyone can post to the callback, so a refused one must store nothing. A burst
 * of forged callbacks (500 in under a second once wrote 8.5 MB of payment log) leaves every
 * table as it was, and each is answered 401 (413/400 when the body itself is refused).
 */
let t: TestApp;
let invoiceId: string;
beforeAll(async () => {
  t = await createTestApp({ PAYMENT_CHECK_INTERVAL_SECONDS: '0' });
  await withPlans(t);
  const buyer = await shopper(t);
  ({ invoiceId } = await startCheckout(t, buyer.headers, PLAN_CODES.premium));
});
afterAll(async () => {
  await t.close();
});

const BURST = 240;

function callbackBody(overrides: Record<string, unknown> = {}) {
  return {
    invoice_id: invoiceId,
    status: 'paid',
    amount: 6900,
    currency: 'MNT',
    timestamp: Math.floor(t.clock.now().getTime() / 1000),
    ...overrides,
  };
}

/** Forged callbacks of every kind an attacker tries, one per index. */
function forgedCallback(index: number) {
  const body = callbackBody();
  const headers: Record<string, string> = { 'content-type': 'application/json' };
  switch (index % 6) {
    case 0:
      headers[SIGNATURE_HEADER] = 'f'.repeat(64);
      break;
    case 1:
      headers[SIGNATURE_HEADER] = signCallback('not-the-secret-'.repeat(3), body);
      break;
    case 2:
      // Signed, then the amount changed.
      headers[SIGNATURE_HEADER] = signCallback(t.config.PAYMENT_CALLBACK_SECRET, body);
      body.amount = 1;
      break;
    case 3:
      // A genuine signature from ten minutes ago: a replay.
      body.timestamp -= 600;
      headers[SIGNATURE_HEADER] = signCallback(t.config.PAYMENT_CALLBACK_SECRET, body);
      break;
    case 4:
      // The header that once went whole into the payment log: 200 KB.
      headers[SIGNATURE_HEADER] = 'a'.repeat(200_000);
      break;
    default:
      break; // no signature at all
  }
  return t.app.inject({
    method: 'POST',
    url: '/api/payments/callback',
    headers,
    payload: JSON.stringify(body),
  });
}

async function rateLimitRows() {
  const { count } = await t.db
    .selectFrom('throttles')
    .select((eb) => eb.fn.countAll<string>().as('count'))
    .executeTakeFirstOrThrow();
  return Number(count);
}

describe('refused payment callbacks store nothing', () => {
  it(`${BURST} concurrent forged callbacks are each refused with 401 and write no row`, async () => {
    const before = await snapshotData(t.db);
    const limitsBefore = await rateLimitRows();

    const responses = await Promise.all(Array.from({ length: BURST }, (_, index) => forgedCallback(index)));

    for (const response of responses) {
      expect(response.statusCode, response.body).toBe(401);
      expect(response.json()).toMatchObject({ error: 'invalid_signature' });
      // The answer never echoes what was sent.
      expect(response.body.length).toBeLessThan(500);
    }
    expect(changedTables(before, await snapshotData(t.db))).toEqual([]);
    expect(await rateLimitRows()).toBe(limitsBefore);
  });

  it('an oversize or malformed body is refused before the handler and writes no row', async () => {
    const before = await snapshotData(t.db);
    const oversize = await t.app.inject({
      method: 'POST',
      url: '/api/payments/callback',
      headers: { 'content-type': 'application/json', [SIGNATURE_HEADER]: 'f'.repeat(64) },
      payload: JSON.stringify(callbackBody({ status: 'x'.repeat(300_000) })),
    });
    expect(oversize.statusCode).toBe(413);
    const longFields = await t.app.inject({
      method: 'POST',
      url: '/api/payments/callback',
      headers: { 'content-type': 'application/json', [SIGNATURE_HEADER]: 'f'.repeat(64) },
      payload: JSON.stringify(callbackBody({ invoice_id: 'i'.repeat(20_000) })),
    });
    expect(longFields.statusCode).toBe(400);
    const malformed = await t.app.inject({
      method: 'POST',
      url: '/api/payments/callback',
      headers: { 'content-type': 'application/json' },
      payload: '{"invoice_id": ',
    });
    expect(malformed.statusCode).toBe(400);
    expect(changedTables(before, await snapshotData(t.db))).toEqual([]);
  });

  it('over real HTTP, a header too large for the server is refused before the application', async () => {
    const before = await snapshotData(t.db);
    const address = await t.app.listen({ port: 0, host: '127.0.0.1' });
    const response = await fetch(`${address}/api/payments/callback`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', [SIGNATURE_HEADER]: 'a'.repeat(64 * 1024) },
      body: JSON.stringify(callbackBody()),
    });
    expect(response.status).toBe(431);
    expect(changedTables(before, await snapshotData(t.db))).toEqual([]);
  });

  it('a refusal leaves one short line in the application log, not the body or headers', async () => {
    const lines: string[] = [];
    const log = { warn: (...args: unknown[]) => void lines.push(JSON.stringify(args)) };
    const hugeSignature = 'a'.repeat(200_000);
    await expect(receivePaymentCallback(t.deps, callbackBody(), hugeSignature, log)).rejects.toMatchObject({
      statusCode: 401,
    });
    expect(lines).toHaveLength(1);
    expect(lines[0]?.length).toBeLessThan(400);
    expect(lines[0]).not.toContain('aaaa');
  });
});
