import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config.js';
import { randomMsisdn, STORE } from '../helpers/factories.js';
import { createTestApp, type TestApp } from '../helpers/test-app.js';

/**
 * A client's address, which every per-client limit counts, comes from X-Forwarded-For only when
 * the connection comes from a proxy listed in TRUST_PROXY (docs/operations.md). The limit used is
 * the per-client send budget (`sendsFromClient`, lib/limits.ts), here 3 codes an hour, each code
 * to a number of its own so no per-number limit is met first.
 */
const ALLOWANCE = 3;

/** Asks for a sign-in code as a connection from `remoteAddress` with these headers. */
const askForCode = (t: TestApp, remoteAddress: string, headers: Record<string, string> = {}) =>
  t.app
    .inject({
      method: 'GET',
      url: '/api/users/requestotp',
      query: { msisdn: randomMsisdn(), language: 'en' },
      headers: { ...STORE, ...headers },
      remoteAddress,
    })
    .then((answer) => answer.statusCode);

async function statusesOf(count: number, ask: (index: number) => Promise<number>) {
  const statuses: number[] = [];
  for (let i = 0; i < count; i++) statuses.push(await ask(i));
  return statuses;
}

/** The allowance spent, then refused. */
const spentAfter = (allowed: number, refused: number) => [
  ...Array<number>(allowed).fill(200),
  ...Array<number>(refused).fill(429),
];

describe('TRUST_PROXY', () => {
  it('takes addresses and CIDRs, comma-separated, and is empty by default', () => {
    expect(loadConfig({}).TRUST_PROXY).toEqual([]);
    expect(loadConfig({ TRUST_PROXY: '10.0.0.5, 10.1.0.0/16,fd00::/8' }).TRUST_PROXY).toEqual([
      '10.0.0.5',
      '10.1.0.0/16',
      'fd00::/8',
    ]);
  });

  it('refuses "true" (which trusted anyone) and what is no address, naming the entry', () => {
    for (const value of ['true', 'haproxy', '10.0.0.0/33', '10.0.0.1/8/1']) {
      expect(() => loadConfig({ TRUST_PROXY: value }), value).toThrow(
        new RegExp(`TRUST_PROXY: "${value}" is no address or CIDR`),
      );
    }
  });
});

describe('one process with nothing in front (TRUST_PROXY empty)', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ SENDS_PER_CLIENT_HOURLY: String(ALLOWANCE) });
  });
  afterAll(async () => {
    await t.close();
  });

  it('buys nothing for a client that makes up its own X-Forwarded-For', async () => {
    const statuses = await statusesOf(ALLOWANCE + 3, (i) =>
      askForCode(t, '198.51.100.7', { 'x-forwarded-for': `203.0.113.${i + 1}` }),
    );
    expect(statuses).toEqual(spentAfter(ALLOWANCE, 3));
  });
});

describe('one process behind a trusted proxy (TRUST_PROXY=127.0.0.1)', () => {
  const PROXY = '127.0.0.1';
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ TRUST_PROXY: PROXY, SENDS_PER_CLIENT_HOURLY: String(ALLOWANCE) });
  });
  afterAll(async () => {
    await t.close();
  });

  it('gives each client the proxy names an allowance of its own', async () => {
    const first = await statusesOf(ALLOWANCE + 1, () =>
      askForCode(t, PROXY, { 'x-forwarded-for': '198.51.100.1' }),
    );
    expect(first).toEqual(spentAfter(ALLOWANCE, 1));
    const second = await statusesOf(ALLOWANCE + 1, () =>
      askForCode(t, PROXY, { 'x-forwarded-for': '198.51.100.2' }),
    );
    expect(second).toEqual(spentAfter(ALLOWANCE, 1));
  });

  it('counts the address the proxy saw, not what the client wrote before it', async () => {
    // A proxy that appends (rather than replaces) passes the client's own entries on first.
    const statuses = await statusesOf(ALLOWANCE + 2, (i) =>
      askForCode(t, PROXY, { 'x-forwarded-for': `203.0.113.${i + 1}, 198.51.100.3` }),
    );
    expect(statuses).toEqual(spentAfter(ALLOWANCE, 2));
  });

  it('believes the header from no other address', async () => {
    const statuses = await statusesOf(ALLOWANCE + 2, (i) =>
      askForCode(t, '198.51.100.9', { 'x-forwarded-for': `203.0.113.${i + 1}` }),
    );
    expect(statuses).toEqual(spentAfter(ALLOWANCE, 2));
    // Nor can a direct client spend another's allowance by claiming its address.
    expect(await askForCode(t, '198.51.100.10', { 'x-forwarded-for': '198.51.100.9' })).toBe(200);
  });
});
