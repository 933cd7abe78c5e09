import fc from 'fast-check';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { hashPassword } from '../../src/modules/accounts/secrets.js';
import { withPlans } from '../helpers/factories.js';
import { createTestApp, type TestApp } from '../helpers/test-app.js';
import { AdvanceClock, RunDueJobs } from './billing-life/account-commands.js';
import { CheckoutByCard, PayCardPage } from './billing-life/payment-commands.js';
import { MODEL_PASSWORD, newWorld, signInOperator } from './billing-life/world.js';

let t: TestApp;
beforeAll(async () => { t = await createTestApp({ PAYMENT_CHECK_INTERVAL_SECONDS: '0' }); await withPlans(t); });
afterAll(async () => { await t.close(); });

it('probe', async () => {
  const op = await signInOperator(t);
  const setup = await newWorld(t, op, 2, await hashPassword(MODEL_PASSWORD), { count: 0, kinds: new Map(), users: [] });
  await fc.asyncModelRun(() => setup, [new CheckoutByCard(0, 'premium', true), new PayCardPage(0, 'paid', true), new AdvanceClock(31 * 86400), new RunDueJobs()]);
  const ids = setup.real.users.map((u) => u.id);
  console.log(await t.db.selectFrom('payment_invoices').select(['kind','status','amount','save_card']).where('user_id','in',ids).execute());
  console.log(await t.db.selectFrom('saved_cards').selectAll().where('user_id','in',ids).execute());
  console.log(await t.db.selectFrom('subscriptions').selectAll().where('owner_id','in',ids).execute());
  expect(1).toBe(1);
});
