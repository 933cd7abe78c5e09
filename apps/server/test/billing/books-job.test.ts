import type { BooksMismatch } from '@tunes/shared/books-codes';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { checkChanges, checkChangesUntil } from '../../src/modules/billing/books-changes.js';
import { BOOKS_JOB_EVERY_MS, lastBooksReport } from '../../src/modules/billing/books-store.js';
import {
  createInvoice,
  createLedgerEntry,
  createSubscription,
  createUser,
  singlePackage,
  withPlans,
} from '../helpers/factories.js';
import { subscriber } from '../helpers/premium.js';
import { createTestApp, type TestApp } from '../helpers/test-app.js';

/**
 * The hourly books job checks what changed since its last run (books-changes.ts), not every row:
 * a mismatch made after its last run, by any code or by hand, on a new row or an old one, is
 * still found, and what it found stays reported until it is mended.
 */
describe('the books job, checking what changed since its last run', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
    await withPlans(t);
  });
  afterAll(() => t.close());

  /** The next hourly run of the job, and the report it kept. */
  const nextRun = async () => {
    t.clock.advance(BOOKS_JOB_EVERY_MS);
    expect((await t.app.jobs.runDue()).ran).toContainEqual({ name: 'billing.books', count: 1 });
    const report = await lastBooksReport(t.db);
    expect(report?.trigger).toBe('job');
    return report?.mismatches ?? [];
  };
  const about = (mismatches: BooksMismatch[], id: string) =>
    mismatches
      .filter((found) => found.invoiceId === id || found.subscriptionId === id)
      .map((found) => found.kind)
      .sort();
  const changesWaiting = async () =>
    Number(
      (
        await t.db
          .selectFrom('books_changes')
          .select((eb) => eb.fn.countAll().as('n'))
          .executeTakeFirstOrThrow()
      ).n,
    );

  it('finds mismatches made after its last run, on new rows and on old ones, and keeps reporting them until mended', async () => {
    const old = await subscriber(t);
    expect(await nextRun()).toEqual([]);
    expect(await changesWaiting()).toBe(0);

    // After the watermark: an old, clean purchase's money given back by hand (its invoice still
    // says paid, its period still gives access), a new invoice marked paid with no capture, and a
    // new period nothing pays for.
    const capture = await t.db
      .selectFrom('payment_ledger')
      .select(['id', 'amount', 'currency'])
      .where('invoice_id', '=', old.invoiceId)
      .executeTakeFirstOrThrow();
    await createLedgerEntry(
      t.db,
      { invoice_id: old.invoiceId, amount: capture.amount, currency: capture.currency },
      {
        entry: 'refund',
        reference: 'by-hand',
        outcome: null,
        refund_of: capture.id,
        created_at: t.clock.now(),
      },
    );
    const user = await createUser(t.db);
    const pkg = await singlePackage(t.db);
    const paid = await createInvoice(t.db, user.id, pkg, { status: 'paid', created_at: t.clock.now() });
    const unpaid = await createSubscription(t.db, user.id, pkg, { start: t.clock.now(), days: 300 });
    expect(await changesWaiting()).toBeGreaterThan(0);

    const found = await nextRun();
    // The gateway, asked, agrees: it gave nothing back.
    expect(about(found, old.invoiceId)).toEqual(['refund_differs', 'refund_status_differs']);
    expect(about(found, old.period.id)).toEqual(['access_without_payment']);
    expect(about(found, paid.invoice_id)).toEqual(['paid_without_capture']);
    expect(about(found, unpaid.id)).toEqual(['access_without_payment']);
    expect(found).toHaveLength(5);
    expect(await changesWaiting()).toBe(0);

    // Nothing changed: the same five are reported again, not forgotten.
    expect(await nextRun()).toEqual(found);

    // Mended: the capture the paid invoice lacked is written (one no provider is asked about);
    // that it started no period is now what is wrong with it. The rest stay as they were.
    await createLedgerEntry(t.db, paid, {
      method: 'voucher',
      reference: 'by-hand',
      created_at: t.clock.now(),
    });
    const after = await nextRun();
    expect(about(after, paid.invoice_id)).toEqual(['capture_without_period']);
    expect(after.filter((mismatch) => mismatch.invoiceId !== paid.invoice_id)).toEqual(
      found.filter((mismatch) => mismatch.invoiceId !== paid.invoice_id),
    );
  });

  it('reads the changes in bounded slices, leaving the rest (and what is wrong in them) to the next slice', async () => {
    const pkg = await singlePackage(t.db);
    await checkChanges(t.db, { now: t.clock.now(), graceMs: 0, limit: 100, carried: [], maxChanges: 1000 });
    const periods = [];
    for (let n = 0; n < 3; n++) {
      const user = await createUser(t.db);
      periods.push(await createSubscription(t.db, user.id, pkg, { start: t.clock.now(), days: 300 }));
    }
    const options = { now: t.clock.now(), graceMs: 0, limit: 100, carried: [], maxChanges: 2 };
    const first = await checkChanges(t.db, options);
    expect(first).toMatchObject({ changesChecked: 2, changesLeft: true });
    expect(first.mismatches.map((found) => found.subscriptionId).sort()).toEqual(
      periods
        .slice(0, 2)
        .map((period) => period.id)
        .sort(),
    );
    const second = await checkChanges(t.db, options);
    expect(second).toMatchObject({ changesChecked: 1, changesLeft: false });
    expect(second.mismatches.map((found) => found.subscriptionId)).toEqual([periods[2]?.id]);
    expect(await checkChanges(t.db, options)).toMatchObject({ changesChecked: 0, mismatches: [] });
  });

  it('reads slice after slice while time is left, a later slice correcting what an earlier one said', async () => {
    const pkg = await singlePackage(t.db);
    await checkChanges(t.db, { now: t.clock.now(), graceMs: 0, limit: 100, carried: [], maxChanges: 1000 });
    const [first, second] = await Promise.all([createUser(t.db), createUser(t.db)]);
    const mended = await createSubscription(t.db, (first as { id: string }).id, pkg, {
      start: t.clock.now(),
      days: 300,
    });
    const unpaid = await createSubscription(t.db, (second as { id: string }).id, pkg, {
      start: t.clock.now(),
      days: 300,
    });
    // Given afterwards by an operator: the first period is backed by its grant.
    await t.db
      .insertInto('payment_ledger')
      .values({
        subscription_id: mended.id,
        entry: 'capture',
        method: 'extension',
        reference: `operator:${mended.id}`,
        amount: 0,
        currency: 'MNT',
        outcome: 'applied',
        created_at: t.clock.now(),
      })
      .execute();
    const options = { now: t.clock.now(), graceMs: 0, limit: 100, carried: [], maxChanges: 1 };
    const all = await checkChangesUntil(t.db, { ...options, untilMs: performance.now() + 60_000 });
    expect(all).toMatchObject({ changesChecked: 3, changesLeft: false });
    expect(all.mismatches.map((found) => [found.kind, found.subscriptionId])).toEqual([
      ['access_without_payment', unpaid.id],
    ]);
    expect(await changesWaiting()).toBe(0);
  });
});
