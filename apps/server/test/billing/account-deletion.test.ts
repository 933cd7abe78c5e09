import { afterAll, beforeAll, expect, it } from 'vitest';
import { hashPassword } from '../../src/modules/accounts/secrets.js';
import { withPlans } from '../helpers/factories.js';
import { ownSubscriptions, subscriber } from '../helpers/premium.js';
import { createTestApp, type TestApp } from '../helpers/test-app.js';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
  await withPlans(t);
});
afterAll(async () => {
  await t.close();
});

it('a deleted account loses its saved card and is never charged again; its invoices stay', async () => {
  const { user, headers, period } = await subscriber(t);
  const password = 'a long enough password';
  await t.db
    .updateTable('users')
    .set({ password_hash: await hashPassword(password) })
    .where('id', '=', user.id)
    .execute();
  const removed = await t.app.inject({
    method: 'DELETE',
    url: '/api/users/me',
    headers,
    payload: { Password: password },
  });
  expect(removed.statusCode, removed.body).toBe(204);

  expect(await t.db.selectFrom('saved_cards').selectAll().where('user_id', '=', user.id).execute()).toEqual(
    [],
  );
  t.clock.set(period.end_date.getTime() + 60_000);
  await t.app.jobs.runDue();
  expect(await ownSubscriptions(t, user.id)).toMatchObject([{ is_auto_renew: false, next_billing_at: null }]);
  const invoices = await t.db
    .selectFrom('payment_invoices')
    .select(['kind', 'status'])
    .where('user_id', '=', user.id)
    .execute();
  expect(invoices).toEqual([{ kind: 'purchase', status: 'paid' }]);
});
