import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { activateInvoice } from '../../src/modules/premium/activation-once.js';
import { checkPendingInvoices } from '../../src/modules/premium/settlement.js';
import { SIGNATURE_HEADER, signCallback } from '../../src/modules/providers/callback-signature.js';
import { PLAN_CODES, STORE, shopper, withPlans } from '../helpers/factories.js';
import {
  DECLINED_CARD,
  ownSubscriptions,
  PAID_CARD,
  paymentLog,
  payOnGateway,
  startCheckout,
} from '../helpers/premium.js';
import { createTestApp, type TestApp, testDatabaseKind } from '../helpers/test-app.js';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({ PAYMENT_CHECK_INTERVAL_SECONDS: '0' });
  await withPlans(t);
});
afterAll(async () => {
  await t.close();
});

/** A checkout paid at the gateway whose callback got lost: only a return, callback or check can settle it. */
async function paidButUnsettled(code: string = PLAN_CODES.premium, card = PAID_CARD) {
  const buyer = await shopper(t);
  const { gatewayUrl, invoiceId } = await startCheckout(t, buyer.headers, code);
  await t.db
    .updateTable('sandbox_gateway_payments')
    .set({ callback_url: null })
    .where('invoice_id', '=', invoiceId)
    .execute();
  const back = await payOnGateway(t, gatewayUrl, card);
  return { ...buyer, invoiceId, back };
}

interface CallbackOptions {
  /** Fields changed after signing. */
  tamper?: Record<string, unknown>;
  secret?: string;
  /** Seconds before now the callback claims to be sent. */
  ageSeconds?: number;
}

function signedCallback(invoiceId: string, { tamper = {}, secret, ageSeconds = 0 }: CallbackOptions = {}) {
  const body = {
    invoice_id: invoiceId,
    status: 'paid',
    amount: 6900,
    currency: 'MNT',
    timestamp: Math.floor(t.clock.now().getTime() / 1000) - ageSeconds,
  };
  const signature = signCallback(secret ?? t.config.PAYMENT_CALLBACK_SECRET, body);
  return t.app.inject({
    method: 'POST',
    url: '/api/payments/callback',
    headers: { [SIGNATURE_HEADER]: signature },
    payload: { ...body, ...tamper },
  });
}

const invoiceStatus = async (invoiceId: string) =>
  (
    await t.db
      .selectFrom('payment_invoices')
      .select('status')
      .where('invoice_id', '=', invoiceId)
      .executeTakeFirstOrThrow()
  ).status;

describe('activation exactly once per invoice', () => {
  it('20 concurrent returns, callbacks and checks for one invoice activate exactly one period', async () => {
    const { user, headers, invoiceId, back } = await paidButUnsettled();
    expect(await ownSubscriptions(t, user.id)).toEqual([]);
    const deps = t.deps;

    const attempts = Array.from({ length: 20 }, (_, i) => {
      switch (i % 4) {
        case 0:
          return t.app.inject({ method: 'GET', url: back.pathname + back.search });
        case 1:
          return signedCallback(invoiceId);
        case 2:
          return checkPendingInvoices(deps);
        default:
          return t.app.inject({
            method: 'GET',
            url: `/api/payments/invoices/${encodeURIComponent(invoiceId)}`,
            headers,
          });
      }
    });
    const results = await Promise.allSettled(attempts);
    expect(results.filter((result) => result.status === 'rejected')).toEqual([]);

    const subscriptions = await ownSubscriptions(t, user.id);
    expect(subscriptions).toHaveLength(1);
    expect(subscriptions[0]?.invoice_id).toBe(invoiceId);
    expect(await invoiceStatus(invoiceId)).toBe('paid');
    const activations = (await paymentLog(t, invoiceId)).filter(
      (row) => row.current_process === 'activation',
    );
    expect(activations).toHaveLength(1);
    // The page's one capture is one ledger row, written with the invoice paid.
    const captures = await t.deps.db
      .selectFrom('payment_ledger')
      .select(['outcome', 'reference', 'amount'])
      .where('invoice_id', '=', invoiceId)
      .where('entry', '=', 'capture')
      .execute();
    expect(captures).toEqual([{ outcome: 'applied', reference: 'session', amount: expect.any(Number) }]);

    // Later returns still land on /success and change nothing.
    const again = await t.app.inject({ method: 'GET', url: back.pathname + back.search });
    expect(again.headers.location).toMatch(/^\/success\?/);
    expect(await ownSubscriptions(t, user.id)).toHaveLength(1);
  });

  // One transaction each: PGlite runs them one after another, so only PostgreSQL's row lock is tested here.
  it.runIf(testDatabaseKind === 'postgres')(
    '20 concurrent activations of one invoice insert one subscription (the transaction, not a prior read)',
    async () => {
      const { user, invoiceId } = await paidButUnsettled();
      const deps = t.deps;
      const results = await Promise.all(Array.from({ length: 20 }, () => activateInvoice(deps, invoiceId)));
      expect(results.filter(Boolean)).toHaveLength(1);
      expect(await ownSubscriptions(t, user.id)).toHaveLength(1);
    },
  );

  it('300 concurrent activations of one invoice mark it paid once and ask for one e-barimt', async () => {
    const { user, invoiceId } = await paidButUnsettled();
    const deps = t.deps;
    const results = await Promise.all(Array.from({ length: 300 }, () => activateInvoice(deps, invoiceId)));
    expect(results.filter(Boolean)).toHaveLength(1);
    expect(await ownSubscriptions(t, user.id)).toHaveLength(1);
    const receipts = await t.db
      .selectFrom('ebarimt_receipts')
      .select(['kind', 'status'])
      .where('invoice_id', '=', invoiceId)
      .execute();
    expect(receipts).toEqual([{ kind: 'citizen', status: 'pending' }]);
  }, 120_000);

  it('the periodic check activates a paid invoice whose shopper never came back', async () => {
    const { user, invoiceId } = await paidButUnsettled(PLAN_CODES.duo);
    await checkPendingInvoices(t.deps);
    expect(await invoiceStatus(invoiceId)).toBe('paid');
    expect(await ownSubscriptions(t, user.id)).toHaveLength(1);
    expect((await paymentLog(t, invoiceId)).map((row) => row.current_process)).toContain('check');
  });

  it('the periodic check closes declined invoices and gives up unpaid ones after a day', async () => {
    const declined = await paidButUnsettled(PLAN_CODES.premium, DECLINED_CARD);
    const abandoned = await shopper(t);
    const { invoiceId: abandonedId } = await startCheckout(t, abandoned.headers, PLAN_CODES.premium);
    await checkPendingInvoices(t.deps);
    expect(await invoiceStatus(declined.invoiceId)).toBe('declined');
    expect(await invoiceStatus(abandonedId)).toBe('created');

    t.clock.advance(25 * 60 * 60 * 1000);
    try {
      await checkPendingInvoices(t.deps);
    } finally {
      t.clock.set(Date.now());
    }
    expect(await invoiceStatus(abandonedId)).toBe('expired');
    expect(await ownSubscriptions(t, abandoned.user.id)).toEqual([]);
  });
});

describe('the signed callback', () => {
  it('a tampered signature is refused, activates nothing and writes no payment-log row', async () => {
    const { user, invoiceId } = await paidButUnsettled();
    const tamperedAmount = await signedCallback(invoiceId, { tamper: { amount: 1 } });
    const wrongSecret = await signedCallback(invoiceId, { secret: 'x'.repeat(40) });
    const missing = await t.app.inject({
      method: 'POST',
      url: '/api/payments/callback',
      payload: { invoice_id: invoiceId, status: 'paid', amount: 6900, currency: 'MNT', timestamp: 1 },
    });
    for (const response of [tamperedAmount, wrongSecret, missing]) {
      expect(response.statusCode).toBe(401);
      expect(response.json()).toMatchObject({ error: 'invalid_signature' });
    }
    const stale = await signedCallback(invoiceId, { ageSeconds: 10 * 60 });
    expect(stale.statusCode).toBe(401);

    expect(await ownSubscriptions(t, user.id)).toEqual([]);
    expect(await invoiceStatus(invoiceId)).toBe('created');
    const refused = (await paymentLog(t, invoiceId)).filter((row) => row.current_process === 'callback');
    expect(refused).toEqual([]);
  });

  it('a correctly signed callback settles the invoice after confirming it with the provider', async () => {
    const { user, invoiceId } = await paidButUnsettled();
    const response = await signedCallback(invoiceId);
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({ status: 'paid' });
    expect(await ownSubscriptions(t, user.id)).toHaveLength(1);
  });

  it('does not activate when the provider reports another amount than the invoice, and gives it back', async () => {
    const { user, invoiceId } = await paidButUnsettled();
    await t.db
      .updateTable('sandbox_gateway_payments')
      .set({ amount: 1 })
      .where('invoice_id', '=', invoiceId)
      .execute();
    await signedCallback(invoiceId);
    expect(await ownSubscriptions(t, user.id)).toEqual([]);
    const log = await paymentLog(t, invoiceId);
    expect(log.map((line) => line.message)).toContainEqual(
      expect.stringMatching(/the provider took 1 MNT; the invoice is 6900 MNT\); refunding/),
    );
    const ledger = await t.db
      .selectFrom('payment_ledger')
      .select(['entry', 'amount', 'outcome'])
      .where('invoice_id', '=', invoiceId)
      .orderBy('id')
      .execute();
    expect(ledger).toEqual([
      { entry: 'capture', amount: 1, outcome: 'surplus' },
      { entry: 'refund', amount: 1, outcome: null },
    ]);
  });
});

describe('invoices belong to their buyer', () => {
  it('a foreign invoice answers 404 exactly as an unknown one', async () => {
    const { invoiceId } = await paidButUnsettled();
    const other = await shopper(t);
    const foreign = await t.app.inject({
      method: 'GET',
      url: `/api/payments/invoices/${encodeURIComponent(invoiceId)}`,
      headers: other.headers,
    });
    expect(foreign.statusCode).toBe(404);
    expect(await invoiceStatus(invoiceId)).toBe('created');

    const unknown = await t.app.inject({
      method: 'GET',
      url: '/api/payments/invoices/nope',
      headers: other.headers,
    });
    expect(unknown.statusCode).toBe(404);
    expect(foreign.json()).toEqual(unknown.json());
    const unknownReturn = await t.app.inject({ method: 'GET', url: '/api/payments/return?invoiceId=nope' });
    expect(unknownReturn.statusCode).toBe(404);
    const noInvoice = await t.app.inject({ method: 'GET', url: '/api/payments/return', headers: STORE });
    expect(noInvoice.json()).toMatchObject({ field: 'invoiceId' });
  });

  it('the owner reads the invoice state', async () => {
    const { headers, invoiceId } = await paidButUnsettled(PLAN_CODES.family);
    const response = await t.app.inject({
      method: 'GET',
      url: `/api/payments/invoices/${encodeURIComponent(invoiceId)}`,
      headers,
    });
    expect(response.json()).toEqual({
      invoiceId,
      status: 'paid',
      MerchantCode: PLAN_CODES.family,
      amount: 17900,
      currency: 'MNT',
      refunded: 0,
    });
  });
});

describe('the periodic check on the job queue', () => {
  it('runs on its own every PAYMENT_CHECK_INTERVAL_SECONDS once the app is ready', async () => {
    const timed = await createTestApp({ PAYMENT_CHECK_INTERVAL_SECONDS: '1' });
    try {
      await withPlans(timed);
      const buyer = await shopper(timed);
      const { gatewayUrl, invoiceId } = await startCheckout(timed, buyer.headers, PLAN_CODES.premium);
      await timed.db
        .updateTable('sandbox_gateway_payments')
        .set({ callback_url: null })
        .where('invoice_id', '=', invoiceId)
        .execute();
      await payOnGateway(timed, gatewayUrl, PAID_CARD);
      // A checkout is left to its shopper's return for 30 s before the queue checks it.
      timed.clock.advance(31_000);
      await vi.waitFor(
        async () => {
          expect(await ownSubscriptions(timed, buyer.user.id)).toHaveLength(1);
        },
        { timeout: 30_000, interval: 200 },
      );
    } finally {
      await timed.close();
    }
  });
});
