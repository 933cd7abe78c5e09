import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, expect, it, vi } from 'vitest';
import { sendMessage } from '../../src/modules/notifications/outbox.js';
import { createTestApp, type TestApp } from '../helpers/test-app.js';

/** An SMS provider on this machine that refuses the first message and accepts the rest. */
let provider: Server;
const received: string[] = [];
let t: TestApp;

beforeAll(async () => {
  let calls = 0;
  provider = createServer((request, response) => {
    let body = '';
    request.on('data', (chunk) => {
      body += chunk;
    });
    request.on('end', () => {
      calls++;
      if (calls === 1) {
        response.writeHead(503).end();
        return;
      }
      received.push(body);
      response.writeHead(202).end();
    });
  });
  await new Promise<void>((resolve) => provider.listen(0, '127.0.0.1', resolve));
  const { port } = provider.address() as AddressInfo;
  t = await createTestApp({ SMS_PROVIDER_URL: `http://127.0.0.1:${port}/sms` });
});
afterAll(async () => {
  await t.close();
  await new Promise((resolve) => provider.close(resolve));
});

it('a message the provider refused is delivered again by the job queue once its retry is due', async () => {
  await sendMessage(t.deps, { channel: 'sms', to: '97688001122', text: 'Your Premium renewed.' });
  const row = () =>
    t.db
      .selectFrom('outbox_messages')
      .select(['attempts', 'next_attempt_at', 'delivered_at', 'delivery_error'])
      .where('recipient', '=', '97688001122')
      .executeTakeFirstOrThrow();
  await vi.waitFor(async () => expect((await row()).attempts).toBe(1));
  const failed = await row();
  expect(failed.delivered_at).toBeNull();
  expect(failed.delivery_error).toContain('503');
  expect(failed.next_attempt_at?.getTime()).toBe(t.clock.now().getTime() + 60_000);

  // Not yet due: nothing is sent.
  await t.app.jobs.runDue();
  expect(received).toEqual([]);

  t.clock.advance(61_000);
  const { ran } = await t.app.jobs.runDue();
  expect(ran).toContainEqual({ name: 'outbox.deliver', count: 1 });
  expect(received).toHaveLength(1);
  expect(JSON.parse(received[0] ?? '{}')).toEqual({
    id: expect.any(String),
    to: '97688001122',
    text: 'Your Premium renewed.',
  });
  expect(await row()).toMatchObject({ attempts: 2, next_attempt_at: null, delivery_error: null });
  expect((await row()).delivered_at).not.toBeNull();

  await t.app.jobs.runDue();
  expect(received).toHaveLength(1);
});
