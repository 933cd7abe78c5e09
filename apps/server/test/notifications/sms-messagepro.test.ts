import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, beforeEach, expect, it, vi } from 'vitest';
import { loadConfig } from '../../src/config.js';
import { accountMessages } from '../../src/modules/accounts/messages.js';
import { smsTransport } from '../../src/modules/notifications/transports.js';
import { lastMessage, requestOtp } from '../helpers/accounts.js';
import { createTestApp, type TestApp } from '../helpers/test-app.js';

/**
 * A MessagePro on this machine that holds the client to the description in
 * `modules/notifications/sms-messagepro.ts`: `GET /send` with `from`, `to` and `text` in the query
 * (UTF-8, percent-encoded) and the key in `x-api-key`; 403 without the right key, 404 for a special
 * number that is not the organisation's, 402 while the organisation is unpaid, 503 past 5 requests a
 * second; otherwise 200 with `[{"Result":"SUCCESS","Message ID":n}]`. Whatever else arrives is
 * refused, so a request the real gateway would not read cannot pass.
 */
const KEY = 'messagepro-test-key-0123456789';
const SPECIAL_NUMBER = '72001234';
const received: { from: string; to: string; text: string; rawQuery: string }[] = [];
const refused: string[] = [];
const gateway = { unpaid: false, blocked: new Set<string>(), recent: [] as number[], nextId: 1000 };

function answer(response: ServerResponse, status: number, body?: unknown) {
  response.writeHead(status, { 'content-type': 'application/json; charset=utf-8' });
  response.end(body === undefined ? undefined : JSON.stringify(body));
}

function handle(request: IncomingMessage, response: ServerResponse) {
  const refuse = (status: number, why: string) => {
    refused.push(why);
    answer(response, status, { message: why });
  };
  const [path = '', rawQuery = ''] = (request.url ?? '').split('?', 2);
  if (request.method !== 'GET' || path !== '/send') return refuse(404, `${request.method} ${path}`);
  if (request.headers['x-api-key'] !== KEY) return refuse(403, 'x-api-key');
  if (gateway.unpaid) return refuse(402, 'unpaid');
  const now = Date.now();
  gateway.recent = gateway.recent.filter((at) => now - at < 1000);
  if (gateway.recent.length >= 5) return refuse(503, 'throttle');
  gateway.recent.push(now);

  const params = new Map<string, string>();
  for (const pair of rawQuery.split('&')) {
    const [name = '', value = ''] = pair.split('=', 2);
    // A '+' is not a space to every reader; the client must send %20.
    if (value.includes('+')) return refuse(400, `+ in ${name}`);
    try {
      if (params.has(name)) return refuse(400, `two ${name}`);
      params.set(name, decodeURIComponent(value));
    } catch {
      return refuse(400, `${name} is not UTF-8`);
    }
  }
  const names = [...params.keys()].sort().join(',');
  if (names !== 'from,text,to') return refuse(400, `parameters ${names}`);
  const from = params.get('from') ?? '';
  const to = params.get('to') ?? '';
  const text = params.get('text') ?? '';
  if (from !== SPECIAL_NUMBER) return refuse(404, `special number ${from}`);
  if (!/^\d{8}$/.test(to) || text === '') return refuse(400, 'to or text');
  if (gateway.blocked.has(to)) return answer(response, 200, [{ Result: 'FAIL', Reason: 'Blocked number' }]);
  received.push({ from, to, text, rawQuery });
  answer(response, 200, [{ Result: 'SUCCESS', 'Message ID': gateway.nextId++ }]);
}

const server = createServer(handle);
let sendUrl = '';
let t: TestApp;

beforeAll(async () => {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  sendUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}/send`;
  t = await createTestApp(messagePro());
});
afterAll(async () => {
  await t.close();
  await new Promise((resolve) => server.close(resolve));
});
beforeEach(() => {
  received.length = 0;
  refused.length = 0;
  Object.assign(gateway, { unpaid: false, blocked: new Set(), recent: [] });
});

function messagePro(overrides: Record<string, string> = {}) {
  return {
    SMS_PROVIDER: 'messagepro',
    SMS_PROVIDER_URL: sendUrl,
    MESSAGEPRO_API_KEY: KEY,
    MESSAGEPRO_FROM: SPECIAL_NUMBER,
    ...overrides,
  };
}

/** The transport alone, as the outbox builds it from a configuration. */
const transport = (overrides: Record<string, string> = {}) =>
  smsTransport(loadConfig({ NODE_ENV: 'test', ...messagePro(overrides) }));

it('a Mongolian code reaches MessagePro in the documented request, its Cyrillic intact', async () => {
  expect((await requestOtp(t, { msisdn: '97688112233', language: 'mn' })).statusCode).toBe(200);
  await vi.waitFor(() => expect(received).toHaveLength(1), { timeout: 10_000 });
  const { code } = await lastMessage(t, '97688112233');
  const text = accountMessages.otp('mn', code ?? '');
  expect(text).toMatch(/баталгаажуулах код/);
  expect(received[0]).toMatchObject({ from: SPECIAL_NUMBER, to: '88112233', text });
  // UTF-8, percent-encoded: "б" is %D0%B1; the key never travels in the address.
  expect(received[0]?.rawQuery).toContain('text=Tunes%20%D0%B1%D0%B0%D1%82');
  expect(received[0]?.rawQuery).not.toContain(KEY);
  expect(refused).toEqual([]);

  const row = () =>
    t.db
      .selectFrom('outbox_messages')
      .select(['delivered_at', 'attempts', 'delivery_error'])
      .where('recipient', '=', '97688112233')
      .executeTakeFirstOrThrow();
  await vi.waitFor(async () => expect((await row()).delivered_at).not.toBeNull());
  expect(await row()).toMatchObject({ attempts: 1, delivery_error: null });
});

it("MessagePro's refusals each fail the send with the documented reason", async () => {
  const message = { id: 'message-1', to: '97699001122', text: 'Сайн байна уу' };
  await expect(transport({ MESSAGEPRO_API_KEY: 'wrong-key' }).send(message)).rejects.toThrow(
    'MessagePro answered 403: the API key is missing or wrong',
  );
  await expect(transport({ MESSAGEPRO_FROM: '72009999' }).send(message)).rejects.toThrow(
    'MessagePro answered 404: the organisation or its special number is not active',
  );
  gateway.unpaid = true;
  await expect(transport().send(message)).rejects.toThrow(
    'MessagePro answered 402: the organisation is closed for non-payment',
  );
  gateway.unpaid = false;
  gateway.blocked.add('99001122');
  await expect(transport().send(message)).rejects.toThrow(
    'MessagePro did not accept the message (FAIL): Blocked number',
  );
  expect(received).toEqual([]);
});

it('past 5 requests a second MessagePro answers 503, and that send fails for a later retry', async () => {
  const sms = transport();
  for (let i = 0; i < 5; i++) await sms.send({ id: `message-${i}`, to: `9768800110${i}`, text: `Код ${i}` });
  // The sixth within the same second (the five are dated now, whatever the machine's load).
  gateway.recent = gateway.recent.map(() => Date.now());
  await expect(sms.send({ id: 'message-5', to: '97688001105', text: 'Код 5' })).rejects.toThrow(
    'MessagePro answered 503: more than 5 requests a second',
  );
  expect(received.map((message) => message.to)).toEqual([
    '88001100',
    '88001101',
    '88001102',
    '88001103',
    '88001104',
  ]);
});

it('a number outside Mongolia is not sent to MessagePro', async () => {
  await expect(transport().send({ id: 'message-6', to: '447700900123', text: 'Hello' })).rejects.toThrow(
    'MessagePro sends only to Mongolian numbers',
  );
  expect(received).toEqual([]);
  expect(refused).toEqual([]);
});
