import type { BooksMismatch } from '@tunes/shared/books-codes';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { loadConfig } from '../../src/config.js';
import { BOOKS_GRACE_MS, type BooksCheckOptions, checkBooks } from '../../src/modules/billing/books-check.js';
import { lastBooksReport } from '../../src/modules/billing/books-store.js';
import { recordRefund } from '../../src/modules/premium/ledger.js';
import { openConfiguredDatabase } from '../../src/runtime.js';
import { runAdmin } from '../helpers/admin.js';
import { consoleCall, signedInOperator } from '../helpers/console.js';
import {
  createInvoice,
  createLedgerEntry,
  createSubscription,
  createUser,
  DAY_MS,
  PLAN_CODES,
  shopper,
  singlePackage,
  withPlans,
} from '../helpers/factories.js';
import { migratedDataDir } from '../helpers/pglite-snapshot.js';
import { PAID_CARD, payOnGateway, subscriber } from '../helpers/premium.js';
import { answerAtBank, loseCallbacks, qpayCheckout, qpaySubscriber } from '../helpers/qpay-factories.js';
import { createTestApp, type TestApp, testDatabaseKind } from '../helpers/test-app.js';

const METRICS_TOKEN = 'books-metrics-token-0123456789';

describe('the books check', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ METRICS_TOKEN });
    await withPlans(t);
  });
  afterAll(() => t.close());

  const check = (options?: BooksCheckOptions) => checkBooks(t.deps, options);
  const kindsOf = (mismatches: BooksMismatch[], id: string) =>
    mismatches
      .filter((found) => found.invoiceId === id || found.subscriptionId === id)
      .map((found) => found.kind);
  /** A purchase marked paid, and the period it started; its ledger rows are each test's own. */
  const paidInvoice = async () => {
    const user = await createUser(t.db);
    const pkg = await singlePackage(t.db);
    const invoice = await createInvoice(t.db, user.id, pkg, {
      status: 'paid',
      created_at: t.clock.now(),
      settled_at: t.clock.now(),
    });
    const period = await createSubscription(t.db, user.id, pkg, { start: t.clock.now() });
    await t.db
      .updateTable('subscriptions')
      .set({ invoice_id: invoice.invoice_id })
      .where('id', '=', period.id)
      .execute();
    return { user, invoice };
  };

  // First: the whole books of this file's database are clean after one purchase.
  it('a clean purchase by card is one applied capture of its price at the gateway and in the ledger, and a period: no mismatch', async () => {
    const { invoiceId, period } = await subscriber(t);
    const ledger = await t.db
      .selectFrom('payment_ledger')
      .selectAll()
      .where('invoice_id', '=', invoiceId)
      .execute();
    const invoice = await t.db
      .selectFrom('payment_invoices')
      .selectAll()
      .where('invoice_id', '=', invoiceId)
      .executeTakeFirstOrThrow();
    expect(ledger).toMatchObject([
      { entry: 'capture', method: 'card', reference: 'session', outcome: 'applied', amount: invoice.amount },
    ]);
    expect(period.invoice_id).toBe(invoiceId);

    const report = await check();
    expect(report.mismatches).toEqual([]);
    expect(report.unchecked).toEqual([]);
    expect(report.invoicesAsked).toBe(1);
  });

  it('money the card gateway took that the ledger lacks is capture_missing, once it is older than the grace period', async () => {
    const user = await createUser(t.db);
    const pkg = await singlePackage(t.db);
    const invoice = await createInvoice(t.db, user.id, pkg, { created_at: t.clock.now() });
    // A payment page opened and paid at the sandbox whose news never reached us (no callback).
    const opened = await t.app.inject({
      method: 'POST',
      url: '/sandbox-gateway/rest/token',
      payload: {
        client_id: t.config.PAYMENT_CLIENT_ID,
        client_secret: t.config.PAYMENT_CLIENT_SECRET,
        amount: invoice.amount,
        currency: invoice.currency,
        description: 'paid where nobody heard',
        invoice_id: invoice.invoice_id,
        redirect_url: `${t.config.PUBLIC_URL}/premium`,
      },
    });
    expect(opened.statusCode, opened.body).toBe(200);
    const { token } = opened.json() as { token: string };
    await t.db
      .updateTable('payment_invoices')
      .set({ provider_token: token })
      .where('invoice_id', '=', invoice.invoice_id)
      .execute();
    await payOnGateway(t, new URL(t.deps.paymentGateway.paymentPageUrl(token)), PAID_CARD);

    // Just taken: the capture may still be on its way to the ledger.
    expect(kindsOf((await check()).mismatches, invoice.invoice_id)).toEqual([]);
    t.clock.advance(BOOKS_GRACE_MS + 60_000);
    const later = (await check()).mismatches.filter((found) => found.invoiceId === invoice.invoice_id);
    expect(later).toEqual([
      {
        kind: 'capture_missing',
        invoiceId: invoice.invoice_id,
        detail: `the card gateway took ${invoice.amount} ${invoice.currency} (session); the ledger has no such capture`,
      },
    ]);
  });

  it("a QPay purchase is balanced by its payment's id; a QPay payment whose news was lost is capture_missing once old", async () => {
    const bought = await qpaySubscriber(t, PLAN_CODES.premium);
    expect(kindsOf((await check()).mismatches, bought.invoiceId)).toEqual([]);

    const buyer = await shopper(t);
    const lost = await qpayCheckout(t, buyer.headers, PLAN_CODES.premium);
    await loseCallbacks(t, lost.invoiceId);
    await answerAtBank(t, lost);
    expect(kindsOf((await check()).mismatches, lost.invoiceId)).toEqual([]);
    t.clock.advance(BOOKS_GRACE_MS + 60_000);
    const found = (await check()).mismatches.filter((mismatch) => mismatch.invoiceId === lost.invoiceId);
    expect(found).toMatchObject([
      { kind: 'capture_missing', detail: expect.stringMatching(/^QPay took \d+ MNT/) },
    ]);
  });

  it('an invoice marked paid without a capture in the ledger is paid_without_capture', async () => {
    const { invoice } = await paidInvoice();
    expect(kindsOf((await check()).mismatches, invoice.invoice_id)).toEqual(['paid_without_capture']);

    await createLedgerEntry(t.db, invoice, { created_at: t.clock.now() });
    expect(kindsOf((await check({ providers: false })).mismatches, invoice.invoice_id)).toEqual([]);
  });

  it('a second capture of a paid invoice is surplus_not_refunded once the grace period passes unrefunded, and clean once refunded', async () => {
    const { invoice } = await paidInvoice();
    await createLedgerEntry(t.db, invoice, { reference: 'charge:1', created_at: t.clock.now() });
    const surplus = await createLedgerEntry(t.db, invoice, {
      reference: 'charge:2',
      outcome: 'surplus',
      reason: 'the invoice is already paid',
      created_at: t.clock.now(),
    });

    // Awaiting its automatic refund: not a mismatch yet.
    expect(kindsOf((await check({ providers: false })).mismatches, invoice.invoice_id)).toEqual([]);
    t.clock.advance(BOOKS_GRACE_MS + 1000);
    const late = await check({ providers: false });
    expect(kindsOf(late.mismatches, invoice.invoice_id)).toEqual(['surplus_not_refunded']);

    await recordRefund(t.db, {
      invoiceId: invoice.invoice_id,
      method: 'card',
      reference: `surplus:${surplus.id}`,
      refundOf: surplus.id,
      amount: surplus.amount,
      currency: surplus.currency,
      reason: 'surplus capture',
      now: t.clock.now(),
    });
    expect(kindsOf((await check({ providers: false })).mismatches, invoice.invoice_id)).toEqual([]);
  });

  it('an invoice paid twice over, refunded beyond its capture or refunded without a status change is named as such', async () => {
    const { invoice } = await paidInvoice();
    await createLedgerEntry(t.db, invoice, { reference: 'charge:1', created_at: t.clock.now() });
    const second = await createLedgerEntry(t.db, invoice, {
      reference: 'charge:2',
      created_at: t.clock.now(),
    });
    await createLedgerEntry(t.db, invoice, {
      entry: 'refund',
      reference: 'operator:test',
      outcome: null,
      refund_of: second.id,
      amount: invoice.amount + 1,
      created_at: t.clock.now(),
    });
    expect(kindsOf((await check({ providers: false })).mismatches, invoice.invoice_id).sort()).toEqual(
      ['capture_total_differs', 'over_refunded', 'refund_status_differs', 'two_applied_captures'].sort(),
    );
  });

  it('a Web period with access and nothing paid behind it is access_without_payment; one given with a ledger grant is not', async () => {
    const pkg = await singlePackage(t.db);
    const owner = await createUser(t.db);
    const unpaid = await createSubscription(t.db, owner.id, pkg, { start: t.clock.now(), days: 30 });
    const given = await t.app.inject({
      method: 'POST',
      url: '/dev/premium/subscriptions',
      payload: { userId: (await createUser(t.db)).id, MerchantCode: pkg.merchant_code },
    });
    expect(given.statusCode, given.body).toBe(201);
    const report = await check({ providers: false });
    expect(kindsOf(report.mismatches, unpaid.id)).toEqual(['access_without_payment']);
    // The only Web period without a payment is the one nothing backs (the given one has its grant).
    const unbacked = report.mismatches.filter((found) => found.kind === 'access_without_payment');
    expect(unbacked.map((found) => found.subscriptionId)).toEqual([unpaid.id]);

    // An ended period gives no access: nothing to back.
    t.clock.advance(31 * DAY_MS);
    expect(kindsOf((await check({ providers: false })).mismatches, unpaid.id)).toEqual([]);
  });

  it('an applied capture whose purchase never led to a period is capture_without_period', async () => {
    const user = await createUser(t.db);
    const invoice = await createInvoice(t.db, user.id, await singlePackage(t.db), {
      status: 'paid',
      created_at: t.clock.now(),
    });
    await createLedgerEntry(t.db, invoice, { created_at: t.clock.now() });
    expect(kindsOf((await check({ providers: false })).mismatches, invoice.invoice_id)).toEqual([
      'capture_without_period',
    ]);
  });

  it('asks the providers in bounded steps, the next going on from where one stopped, and only about recent invoices when told', async () => {
    const all = await check();
    expect(all.invoicesAsked).toBeGreaterThan(3);
    const first = await check({ maxInvoices: 2, pageSize: 1 });
    expect(first.invoicesAsked).toBe(2);
    expect(first.providersAfter).not.toBeNull();
    const rest = await check({ providersAfter: first.providersAfter ?? undefined });
    expect(rest.providersAfter).toBeNull();
    expect(first.invoicesAsked + rest.invoicesAsked).toBe(all.invoicesAsked);

    // Nothing was touched since now: only invoices still open are asked, and old invoices' mismatches are left out.
    const recent = await check({ since: t.clock.now() });
    expect(recent.invoicesAsked).toBeLessThan(all.invoicesAsked);
    expect(all.mismatches.map((found) => found.kind)).toContain('two_applied_captures');
    expect(recent.mismatches.map((found) => found.kind)).not.toContain('two_applied_captures');
  });

  it('the hourly job checks the books once an hour of the service clock; its count is a metric, and the console shows it to admins only', async () => {
    const first = await t.app.jobs.runDue();
    expect(first.ran).toContainEqual({ name: 'billing.books', count: 1 });
    const again = await t.app.jobs.runDue();
    expect(again.ran).toContainEqual({ name: 'billing.books', count: 0 });
    const stored = await lastBooksReport(t.db);
    expect(stored?.trigger).toBe('job');
    expect(stored?.mismatches.map((found) => found.kind)).toContain('two_applied_captures');

    const admin = await signedInOperator(t, 'admin');
    const answer = await consoleCall(t, admin.cookie, 'GET', '/api/admin/books');
    expect(answer.statusCode, answer.body).toBe(200);
    expect(answer.json()).toEqual(stored);
    // Every instance reads the stored check for Prometheus.
    const metrics = await t.app.inject({
      method: 'GET',
      url: '/metrics',
      headers: { authorization: `Bearer ${METRICS_TOKEN}` },
    });
    expect(metrics.body).toContain(`\ntunes_books_mismatches ${stored?.mismatches.length}\n`);
    const support = await signedInOperator(t, 'support');
    expect((await consoleCall(t, support.cookie, 'GET', '/api/admin/books')).statusCode).toBe(403);

    t.clock.advance(60 * 60_000);
    expect((await t.app.jobs.runDue()).ran).toContainEqual({ name: 'billing.books', count: 1 });
  });

  it('GET /dev/books, which the e2e suite asks after its last test, checks the books now and answers every mismatch', async () => {
    const answer = await t.app.inject({ method: 'GET', url: '/dev/books?graceSeconds=0' });
    expect(answer.statusCode, answer.body).toBe(200);
    const report = answer.json() as { trigger: string; mismatches: BooksMismatch[] };
    expect(report.trigger).toBe('dev');
    expect(report.mismatches).toEqual((await check({ graceMs: 0 })).mismatches);
    expect(report.mismatches.map((found) => found.kind)).toContain('two_applied_captures');
  });
});

// The command line opens its own embedded database, so one run of the suite is enough.
describe.skipIf(testDatabaseKind === 'postgres')('npm run admin -- books:check', () => {
  it('exits 0 when the books balance, and 1 naming each mismatch when they do not', async () => {
    const dataDir = migratedDataDir(inject('pgliteSnapshot'), 'tunes-books-');
    const clean = await runAdmin(dataDir, 'books:check');
    expect(clean.stderr).toBe('');
    expect(clean.code).toBe(0);
    expect(clean.stdout).toContain('0 mismatch(es), 0 not checked.');
    expect(clean.stdout).toContain('The books balance.');

    const database = await openConfiguredDatabase(loadConfig({ DATA_DIR: dataDir, LOG_LEVEL: 'silent' }));
    let invoiceId: string;
    try {
      await database.ready;
      const user = await createUser(database.db);
      const invoice = await createInvoice(database.db, user.id, await singlePackage(database.db), {
        status: 'paid',
      });
      invoiceId = invoice.invoice_id;
    } finally {
      await database.shutdown();
    }

    const broken = await runAdmin(dataDir, 'books:check');
    expect(broken.code).toBe(1);
    expect(broken.stdout).toContain(`paid_without_capture  invoice ${invoiceId}: paid for`);
    expect(broken.stderr).toBe('The books do not balance: 1 mismatch(es), 0 invoice(s) not checked.\n');
  }, 120_000);
});
