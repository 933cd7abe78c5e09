import { createServer, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { createVouchers } from '../../src/modules/vouchers/voucher-codes.js';
import { createUser, singlePackage } from '../helpers/factories.js';
import { createTestApp, type TestApp } from '../helpers/test-app.js';

const received: unknown[] = [];
const couponService = createServer((request: IncomingMessage, response) => {
  let body = '';
  request.on('data', (chunk) => {
    body += chunk;
  });
  request.on('end', () => {
    received.push(JSON.parse(body));
    response.writeHead(200).end('{}');
  });
});

let t: TestApp;
beforeAll(async () => {
  await new Promise<void>((resolve) => couponService.listen(0, '127.0.0.1', resolve));
  const { port } = couponService.address() as AddressInfo;
  t = await createTestApp({ COUPON_SERVICE_URL: `http://127.0.0.1:${port}/coupon` });
});
afterAll(async () => {
  await t.close();
  couponService.close();
});

it('after a redemption the coupon service is told the msisdn (or username) and couponcode', async () => {
  const pkg = await singlePackage(t.db);
  const { codes } = await createVouchers(t.deps, { package: pkg.merchant_code, days: 30, count: 2 });
  const phoneUser = await createUser(t.db, { phone_number: '97688001122' });
  const mailUser = await createUser(t.db, { primary_email: 'saraa@example.mn' });
  for (const [user, code] of [
    [phoneUser, codes[0]],
    [mailUser, codes[1]],
  ] as const) {
    const response = await t.app.inject({
      method: 'POST',
      url: `/api/users/redeemvoucher?code=${code}`,
      headers: await t.authHeader(user.id),
    });
    expect(response.statusCode).toBe(200);
  }
  expect(received).toEqual([
    { msisdn: '97688001122', couponcode: codes[0] },
    { msisdn: 'saraa@example.mn', couponcode: codes[1] },
  ]);
  const statuses = await t.db.selectFrom('coupon_notifications').select('status').execute();
  expect(statuses.map((row) => row.status)).toEqual(['sent', 'sent']);
});
