import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { simpleParser } from 'mailparser';
import { SMTPServer } from 'smtp-server';
import { afterAll, beforeAll, expect, it, vi } from 'vitest';
import { sendMessage } from '../../src/modules/notifications/outbox.js';
import { createTestApp, type TestApp } from '../helpers/test-app.js';

/**
 * Every outgoing message carries its outbox id, the same on every try (docs/operations.md
 * "Messages"): the JSON SMS provider gets it as `id` and `Idempotency-Key`, a mail as its
 * Message-ID. The SMS provider here is slow the way that made messages arrive twice: it accepts a
 * message, then answers after our timeout; it drops a repeat of an id it has accepted.
 */
const TIMEOUT_MS = 300;
const requests: { headers: IncomingHttpHeaders; body: { id?: string; to: string; text: string } }[] = [];
const delivered: string[] = [];
const accepted = new Set<string>();
let provider: Server;

const mails: Buffer[] = [];
let refuseNextMail = false;
const mailServer = new SMTPServer({
  authOptional: true,
  disabledCommands: ['STARTTLS'],
  logger: false,
  onData(stream, _session, callback) {
    const chunks: Buffer[] = [];
    stream.on('data', (chunk: Buffer) => chunks.push(chunk));
    stream.on('end', () => {
      mails.push(Buffer.concat(chunks));
      if (!refuseNextMail) return callback();
      refuseNextMail = false;
      callback(Object.assign(new Error('Try again later'), { responseCode: 451 }));
    });
  },
});

let t: TestApp;

beforeAll(async () => {
  provider = createServer((request, response) => {
    let text = '';
    request.on('data', (chunk) => {
      text += chunk;
    });
    request.on('end', () => {
      const body = JSON.parse(text);
      requests.push({ headers: request.headers, body });
      const id = request.headers['idempotency-key'] ?? body.id;
      if (typeof id === 'string' && accepted.has(id)) {
        response.writeHead(200).end('{"duplicate":true}');
        return;
      }
      if (typeof id === 'string') accepted.add(id);
      delivered.push(body.text);
      setTimeout(() => response.writeHead(202).end(), TIMEOUT_MS * 3);
    });
  });
  await new Promise<void>((resolve) => provider.listen(0, '127.0.0.1', resolve));
  await new Promise<void>((resolve) => mailServer.listen(0, '127.0.0.1', resolve));
  const smsPort = (provider.address() as AddressInfo).port;
  const mailPort = (mailServer.server.address() as AddressInfo).port;
  t = await createTestApp({
    SMS_PROVIDER_URL: `http://127.0.0.1:${smsPort}/sms`,
    MESSAGE_SEND_TIMEOUT_MS: String(TIMEOUT_MS),
    SMTP_URL: `smtp://127.0.0.1:${mailPort}`,
    MAIL_FROM: 'Tunes <no-reply@tunes.mn>',
  });
});
afterAll(async () => {
  await t.close();
  provider.closeAllConnections();
  await new Promise((resolve) => provider.close(resolve));
  await new Promise<void>((resolve) => mailServer.close(() => resolve()));
});

const outboxRow = (to: string) =>
  t.db
    .selectFrom('outbox_messages')
    .select(['id', 'attempts', 'delivered_at', 'delivery_error'])
    .where('recipient', '=', to)
    .executeTakeFirstOrThrow();

it('a slow SMS provider gets a timed-out message again with the same id, and delivers it once', async () => {
  const to = '97688009911';
  await sendMessage(t.deps, { channel: 'sms', to, text: 'Таны код: 123456' });
  await vi.waitFor(async () => expect((await outboxRow(to)).attempts).toBe(1));
  const failed = await outboxRow(to);
  expect(failed.delivered_at).toBeNull();
  expect(failed.delivery_error).toMatch(/timeout|aborted/i);
  expect(delivered).toEqual(['Таны код: 123456']);

  t.clock.advance(61_000);
  await t.app.jobs.runDue();
  const row = await outboxRow(to);
  expect(row).toMatchObject({ attempts: 2, delivery_error: null });
  expect(row.delivered_at).not.toBeNull();

  // Two tries, one id (the outbox row's) in the body and the header; one message on the handset.
  expect(requests.map((request) => request.body.id)).toEqual([row.id, row.id]);
  expect(requests.map((request) => request.headers['idempotency-key'])).toEqual([row.id, row.id]);
  expect(delivered).toEqual(['Таны код: 123456']);
});

it('an e-mail tried again carries the Message-ID of its first try, made from its outbox id', async () => {
  const to = 'retry@example.mn';
  refuseNextMail = true;
  await sendMessage(t.deps, { channel: 'email', to, subject: 'Tunes', text: 'Сайн байна уу' });
  await vi.waitFor(async () => expect((await outboxRow(to)).attempts).toBe(1));
  expect((await outboxRow(to)).delivery_error).toMatch(/451/);

  t.clock.advance(61_000);
  await t.app.jobs.runDue();
  const row = await outboxRow(to);
  expect(row.delivered_at).not.toBeNull();
  const ids = await Promise.all(mails.map(async (raw) => (await simpleParser(raw)).messageId));
  expect(ids).toEqual([`<${row.id}@tunes.mn>`, `<${row.id}@tunes.mn>`]);
});
