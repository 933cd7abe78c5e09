import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { UsageError } from '../../src/admin/command.js';
import { command } from '../../src/admin/commands/payments-check.js';
import { PLAN_CODES, shopper, withPlans } from '../helpers/factories.js';
import { ownSubscriptions, PAID_CARD, payOnGateway, startCheckout } from '../helpers/premium.js';
import { createTestApp, type TestApp } from '../helpers/test-app.js';

let t: TestApp;
let providerUrl: string;
beforeAll(async () => {
  t = await createTestApp();
  await withPlans(t);
  // The command reaches the provider over the network, as it would a running server.
  const address = await t.app.listen({ host: '127.0.0.1', port: 0 });
  providerUrl = `${address}/sandbox-gateway`;
});
afterAll(async () => {
  await t.close();
});

async function run(args: string[]) {
  const lines: string[] = [];
  const config = { ...t.config, PAYMENT_PROVIDER_URL: providerUrl };
  await command.run(args, { config, db: async () => t.db, print: (line) => lines.push(line) });
  return lines;
}

/** A card payment the provider took whose callback and return never reached the shop. */
async function paidButUnsettled() {
  const buyer = await shopper(t);
  const { gatewayUrl, invoiceId } = await startCheckout(t, buyer.headers, PLAN_CODES.premium);
  await t.db
    .updateTable('sandbox_gateway_payments')
    .set({ callback_url: null })
    .where('invoice_id', '=', invoiceId)
    .execute();
  await payOnGateway(t, gatewayUrl, PAID_CARD);
  return { ...buyer, invoiceId };
}

describe('npm run admin -- payments:check', () => {
  it('activates a paid invoice whose shopper never came back, once, by id or with all pending', async () => {
    const one = await paidButUnsettled();
    expect(await run(['--invoice', one.invoiceId])).toContain(`Invoice ${one.invoiceId}: paid.`);
    expect(await ownSubscriptions(t, one.user.id)).toHaveLength(1);

    const two = await paidButUnsettled();
    const lines = await run([]);
    expect(lines[0]).toMatch(/^Checked [1-9]\d* pending invoice\(s\)\.$/);
    expect(await ownSubscriptions(t, two.user.id)).toHaveLength(1);
    await run(['--invoice', one.invoiceId]);
    expect(await ownSubscriptions(t, one.user.id)).toHaveLength(1);
  });

  it('turns auto-renew off for card periods that ended without a renewal payment', async () => {
    const { user } = await shopper(t);
    const ended = new Date(Date.now() - 60_000);
    await t.db
      .insertInto('subscriptions')
      .values({
        owner_id: user.id,
        package_id: (
          await t.db
            .selectFrom('packages')
            .select('id')
            .where('merchant_code', '=', PLAN_CODES.premium)
            .executeTakeFirstOrThrow()
        ).id,
        start_date: new Date(ended.getTime() - 30 * 24 * 60 * 60 * 1000),
        end_date: ended,
        is_auto_renew: true,
        source_type: 'Web',
      })
      .execute();
    const lines = await run([]);
    expect(lines.at(-1)).toMatch(/^Ended auto-renew of [1-9]\d* unpaid card period\(s\)\.$/);
    expect(await ownSubscriptions(t, user.id)).toMatchObject([{ is_auto_renew: false }]);
  });

  it('names an unknown invoice and refuses an empty --invoice', async () => {
    expect(await run(['--invoice', 'no-such-invoice'])).toContain('No such invoice: no-such-invoice.');
    await expect(run(['--invoice', ' '])).rejects.toThrow(UsageError);
  });
});
