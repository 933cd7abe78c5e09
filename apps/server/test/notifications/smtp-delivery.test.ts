import type { AddressInfo } from 'node:net';
import { simpleParser } from 'mailparser';
import { SMTPServer, type SMTPServerSession } from 'smtp-server';
import { afterAll, beforeAll, beforeEach, expect, it, vi } from 'vitest';
import { accountMessages } from '../../src/modules/accounts/messages.js';
import { lastMessage, requestOtp } from '../helpers/accounts.js';
import { createTestApp, type TestApp } from '../helpers/test-app.js';

/**
 * The SMTP transport against a real SMTP server process (the `smtp-server` package): STARTTLS
 * with its built-in self-signed certificate, AUTH only once the connection is encrypted, every
 * message kept as the bytes that arrived.
 */
interface Arrival {
  raw: Buffer;
  from: string;
  to: string[];
  secure: boolean;
  user: unknown;
}
const arrivals: Arrival[] = [];
const USER = 'tunes-mailer';
const PASSWORD = 'mail-secret-1';

const server = new SMTPServer({
  // The default: AUTH is refused before STARTTLS, as a real submission server does.
  allowInsecureAuth: false,
  authMethods: ['PLAIN', 'LOGIN'],
  onAuth(auth, _session, callback) {
    if (auth.username === USER && auth.password === PASSWORD) callback(null, { user: USER });
    else callback(Object.assign(new Error('Invalid username or password'), { responseCode: 535 }));
  },
  onData(stream, session: SMTPServerSession, callback) {
    const chunks: Buffer[] = [];
    stream.on('data', (chunk: Buffer) => chunks.push(chunk));
    stream.on('end', () => {
      arrivals.push({
        raw: Buffer.concat(chunks),
        from: session.envelope.mailFrom ? session.envelope.mailFrom.address : '',
        to: session.envelope.rcptTo.map((recipient) => recipient.address),
        secure: session.secure,
        user: session.user,
      });
      callback();
    });
  },
  logger: false,
});

let t: TestApp;
let wrongPassword: TestApp;

beforeAll(async () => {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.server.address() as AddressInfo;
  // The test server's certificate is self-signed, so this client may not check it.
  const url = (password: string) =>
    `smtp://${USER}:${password}@127.0.0.1:${port}/?tls.rejectUnauthorized=false`;
  t = await createTestApp({ SMTP_URL: url(PASSWORD), MAIL_FROM: 'Tunes хөгжим <no-reply@tunes.mn>' });
  wrongPassword = await createTestApp({ SMTP_URL: url('not-the-password') });
});
afterAll(async () => {
  await t.close();
  await wrongPassword.close();
  await new Promise<void>((resolve) => server.close(() => resolve()));
});
beforeEach(() => {
  arrivals.length = 0;
});

const outboxRow = (app: TestApp, to: string) =>
  app.db
    .selectFrom('outbox_messages')
    .select(['attempts', 'delivered_at', 'delivery_error'])
    .where('recipient', '=', to)
    .executeTakeFirstOrThrow();

it('a Mongolian code e-mail arrives over STARTTLS as UTF-8 in its subject and body, with the right headers', async () => {
  const to = 'listener@example.mn';
  expect((await requestOtp(t, { email: to, language: 'mn' })).statusCode).toBe(200);
  await vi.waitFor(() => expect(arrivals).toHaveLength(1), { timeout: 10_000 });
  const { code } = await lastMessage(t, to);
  const [arrival] = arrivals;
  if (!arrival) throw new Error('no message arrived');

  // The envelope and the session: signed in, after STARTTLS.
  expect(arrival).toMatchObject({ from: 'no-reply@tunes.mn', to: [to], secure: true, user: USER });

  // On the wire every byte is 7-bit: the Cyrillic travels encoded, so no relay can mangle it.
  expect(arrival.raw.every((byte) => byte < 0x80)).toBe(true);
  const raw = arrival.raw.toString('ascii');
  expect(raw).toMatch(/^Subject: =\?UTF-8\?[BQ]\?/im);
  expect(raw).toMatch(/^From: =\?UTF-8\?[BQ]\?.*\?= <no-reply@tunes\.mn>/im);
  expect(raw).toMatch(/^MIME-Version: 1\.0/im);
  expect(raw).toMatch(/^Content-Type: text\/plain; charset=utf-8/im);
  expect(raw).toMatch(/^Content-Transfer-Encoding: (quoted-printable|base64)/im);
  expect(raw).toMatch(/^Message-ID: <.+@tunes\.mn>/im);
  expect(raw).toMatch(/^Date: /im);

  // Decoded, it is the text the listener was meant to read.
  const mail = await simpleParser(arrival.raw);
  expect(mail.subject).toBe(accountMessages.otpSubject('mn'));
  expect(mail.subject).toBe('Tunes баталгаажуулах код');
  expect(mail.text?.trim()).toBe(accountMessages.otp('mn', code ?? ''));
  expect(mail.text).toContain('баталгаажуулах код');
  expect(mail.from?.value).toEqual([{ address: 'no-reply@tunes.mn', name: 'Tunes хөгжим' }]);
  expect(mail.to).toMatchObject({ value: [{ address: to }] });
  expect(mail.headers.get('content-type')).toMatchObject({
    value: 'text/plain',
    params: { charset: 'utf-8' },
  });

  await vi.waitFor(async () => expect((await outboxRow(t, to)).delivered_at).not.toBeNull());
  expect(await outboxRow(t, to)).toMatchObject({ attempts: 1, delivery_error: null });
});

it('a mail server that refuses the sign-in leaves the message undelivered with its answer, for the retries', async () => {
  const to = 'refused@example.mn';
  expect((await requestOtp(wrongPassword, { email: to, language: 'mn' })).statusCode).toBe(200);
  await vi.waitFor(async () => expect((await outboxRow(wrongPassword, to)).attempts).toBe(1), {
    timeout: 10_000,
  });
  const row = await outboxRow(wrongPassword, to);
  expect(row.delivered_at).toBeNull();
  expect(row.delivery_error).toMatch(/535/);
  expect(arrivals).toEqual([]);
});
