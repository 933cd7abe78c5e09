import { sql } from 'kysely';
import PgBoss from 'pg-boss';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSubscription, createUser, singlePackage, withPlans } from '../helpers/factories.js';
import { createTestApp, type TestApp, testDatabaseKind } from '../helpers/test-app.js';

/**
 * Two servers on one PostgreSQL database run the queue together (product.md §12): each renewal is
 * charged once. PGlite is one process per data directory, so this runs on PostgreSQL only.
 */
describe.skipIf(testDatabaseKind !== 'postgres')('two servers sharing the job queue', () => {
  let first: TestApp;
  let second: TestApp;
  beforeAll(async () => {
    first = await createTestApp();
    second = await createTestApp({}, { shareDatabaseWith: first });
    await withPlans(first);
  });
  afterAll(async () => {
    await second?.close();
    await first?.close();
  });

  /** `count` subscriptions with a saved card whose renewal is due now; answers their owners. */
  async function dueRenewals(count: number, tag: string) {
    const plan = await singlePackage(first.db);
    const now = first.clock.now();
    const owners: string[] = [];
    for (let i = 0; i < count; i++) {
      const owner = await createUser(first.db);
      const subscription = await createSubscription(first.db, owner.id, plan, {
        start: new Date(now.getTime() - 30 * 86_400_000),
        days: 30,
        autoRenew: true,
      });
      await first.db
        .updateTable('subscriptions')
        .set({ next_billing_at: subscription.end_date })
        .where('id', '=', subscription.id)
        .execute();
      const card = `card_${tag}_${i}`;
      await first.db
        .insertInto('sandbox_gateway_cards')
        .values({
          token: card,
          client_id: first.config.PAYMENT_CLIENT_ID,
          card_number: '4242424242424242',
          expires: '12/39',
          created_at: now,
        })
        .execute();
      await first.db
        .insertInto('saved_cards')
        .values({
          user_id: owner.id,
          provider_token: card,
          brand: 'Visa',
          last4: '4242',
          expires: '12/39',
          saved_at: now,
        })
        .execute();
      owners.push(owner.id);
    }
    return owners;
  }

  // First, while no process of this file runs workers: the shared test's workers keep polling
  // afterwards and would take the jobs the dead process is meant to hold.
  it('renewals a killed process held are run again within about a minute, each still charged once', async () => {
    const owners = await dueRenewals(5, 'killed');
    first.clock.advance(60_000);
    await first.app.jobs.scan();
    // A process takes the renewal jobs and dies before finishing them: they stay active under it.
    const dead = new PgBoss({
      connectionString: first.config.DATABASE_URL ?? '',
      schema: 'pgboss',
      supervise: false,
    });
    await dead.start();
    const held = await dead.fetch<{ key: string }>('billing.renew', { batchSize: 100 });
    await dead.stop({ graceful: false, close: true, wait: false });
    expect(held.length).toBeGreaterThanOrEqual(5);
    // A minute later (the database's clock cannot be moved: the jobs' start is moved back instead).
    const ids = held.map((job) => job.id);
    await sql`update pgboss.job set started_on = now() - interval '61 seconds' where id = any(${ids}::uuid[])`.execute(
      first.db,
    );

    const started = Date.now();
    await second.app.jobs.runDue();
    expect(Date.now() - started).toBeLessThan(60_000);
    const invoices = await first.db
      .selectFrom('payment_invoices')
      .select(['invoice_id', 'status'])
      .where('user_id', 'in', owners)
      .where('kind', '=', 'renewal')
      .execute();
    expect(invoices.map((invoice) => invoice.status)).toEqual(Array(5).fill('paid'));
    const charges = await first.db
      .selectFrom('sandbox_gateway_charges')
      .select('invoice_id')
      .where(
        'invoice_id',
        'in',
        invoices.map((invoice) => invoice.invoice_id),
      )
      .execute();
    expect(charges).toHaveLength(5);
  }, 120_000);

  it('charge each of 60 renewals due at once exactly once, with both running due jobs and their workers', async () => {
    const owners = await dueRenewals(60, 'shared');
    first.clock.advance(60_000);
    await Promise.all([first.app.jobs.startWorkers(1), second.app.jobs.startWorkers(1)]);
    await Promise.all([first.app.jobs.runDue(), second.app.jobs.runDue(), first.app.jobs.runDue()]);

    const invoices = await first.db
      .selectFrom('payment_invoices')
      .select(['invoice_id', 'status', 'user_id'])
      .where('user_id', 'in', owners)
      .where('kind', '=', 'renewal')
      .execute();
    expect(invoices).toHaveLength(60);
    expect(invoices.every((invoice) => invoice.status === 'paid')).toBe(true);
    const charges = await first.db
      .selectFrom('sandbox_gateway_charges')
      .select((eb) => ['invoice_id', eb.fn.countAll<number>().as('count')])
      .where(
        'invoice_id',
        'in',
        invoices.map((invoice) => invoice.invoice_id),
      )
      .groupBy('invoice_id')
      .execute();
    expect(charges).toHaveLength(60);
    expect(charges.every((charge) => Number(charge.count) === 1)).toBe(true);
    const renewed = await first.db
      .selectFrom('subscriptions')
      .select('end_date')
      .where('owner_id', 'in', owners)
      .execute();
    expect(renewed.every((row) => row.end_date.getTime() > first.clock.now().getTime())).toBe(true);
  }, 120_000);
});
