import { request } from 'node:http';
import { Redis } from 'ioredis';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
// @ts-expect-error: a plain-JavaScript launcher shared with `npm run cluster`.
import { startCluster } from '../../../scripts/lib/cluster.mjs';

/**
 * Per-client limits behind the shipped balancer (docs/operations.md "Scaling out"): HAProxy sets
 * X-Forwarded-For to the address a client connected from, dropping what the client sent, and the
 * processes believe the header only from HAProxy (TRUST_PROXY=127.0.0.1). The limit used is the
 * per-client free sends (`freeSendsFromClient` of lib/limits.ts, SENDS_PER_CLIENT_HOURLY = 10): codes
 * one client address may have sent per hour, each code to a number of its own so no per-number
 * limit is met first. Needs a build, DATABASE_URL, REDIS_URL and HAProxy.
 */
interface Cluster {
  url: string;
  stop(): Promise<void>;
}

const ALLOWANCE = 10;
const adminUrl = new URL(process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres');
const databaseName = `tunes_client_limits_${process.pid}`;
const databaseUrl = (() => {
  const url = new URL(adminUrl);
  url.pathname = `/${databaseName}`;
  return url.toString();
})();
const redisUrl = `${(process.env.REDIS_URL ?? 'redis://127.0.0.1:6379').replace(/\/\d*$/, '')}/8`;

let cluster: Cluster;

beforeAll(async () => {
  if (!process.env.DATABASE_URL || !process.env.REDIS_URL) return;
  const admin = new pg.Client({ connectionString: adminUrl.toString() });
  await admin.connect();
  await admin.query(`create database ${databaseName}`);
  await admin.end();
  const redis = new Redis(redisUrl);
  await redis.flushdb();
  await redis.quit();
  cluster = await startCluster({
    databaseUrl,
    redisUrl,
    processes: 3,
    env: { SENDS_PER_CLIENT_HOURLY: String(ALLOWANCE), PAYMENT_CHECK_INTERVAL_SECONDS: '0' },
  });
}, 240_000);

afterAll(async () => {
  if (!process.env.DATABASE_URL || !process.env.REDIS_URL) return;
  await cluster?.stop();
  const admin = new pg.Client({ connectionString: adminUrl.toString() });
  await admin.connect();
  await admin.query(`drop database if exists ${databaseName} with (force)`);
  await admin.end();
}, 60_000);

/**
 * A GET through the balancer from the loopback address `from` (127.0.0.0/8 is all this
 * machine's on Linux), as a client on its own network address would send it.
 */
function getFrom(from: string, path: string, headers: Record<string, string> = {}) {
  return new Promise<{ status: number; body: string }>((resolve, reject) => {
    const call = request(
      `${cluster.url}${path}`,
      { localAddress: from, headers: { StoreId: 'MNCO', ...headers } },
      (response) => {
        let body = '';
        response.setEncoding('utf8');
        response.on('data', (chunk) => {
          body += chunk;
        });
        response.on('end', () => resolve({ status: response.statusCode ?? 0, body }));
      },
    );
    call.on('error', reject);
    call.end();
  });
}

let numbers = 0;
const nextMsisdn = () =>
  `9767${String(process.pid % 1000).padStart(3, '0')}${String(numbers++).padStart(4, '0')}`;

/** Asks for a sign-in code to a number of its own: only the per-client budget can refuse it. */
const askForCode = (from: string, headers: Record<string, string> = {}) =>
  getFrom(from, `/api/users/requestotp?msisdn=${nextMsisdn()}&language=en&otpprovider=sms`, headers);

/** The statuses of `count` code requests sent one after another. */
async function statusesOf(count: number, ask: (index: number) => ReturnType<typeof askForCode>) {
  const statuses: number[] = [];
  for (let i = 0; i < count; i++) statuses.push((await ask(i)).status);
  return statuses;
}

const allowed = (count: number) => Array<number>(count).fill(200);
const refused = (count: number) => Array<number>(count).fill(429);

describe.skipIf(!process.env.DATABASE_URL || !process.env.REDIS_URL)(
  'per-client limits behind HAProxy (TRUST_PROXY = the balancer)',
  () => {
    it('gives two clients behind the balancer two allowances, each counted across the processes', async () => {
      const first = await statusesOf(ALLOWANCE + 1, () => askForCode('127.0.0.1'));
      expect(first).toEqual([...allowed(ALLOWANCE), ...refused(1)]);
      // Another client is not refused for the first one's spending: it has its own ten.
      const second = await statusesOf(ALLOWANCE + 1, () => askForCode('127.0.0.2'));
      expect(second).toEqual([...allowed(ALLOWANCE), ...refused(1)]);
      const refusal = await askForCode('127.0.0.2');
      expect(refusal.status).toBe(429);
      // Past the free codes a challenge is asked (accounts/shared-address.test.ts solves it).
      expect(refusal.body).toContain('"reason":"challenge_required"');
    });

    it('buys nothing for a client that makes up its own X-Forwarded-For', async () => {
      const forged = await statusesOf(14, (i) =>
        askForCode('127.0.0.3', { 'X-Forwarded-For': `203.0.113.${i + 1}` }),
      );
      // Ten codes as for anyone, then 429 from the 11th on: each made-up address was dropped.
      expect(forged).toEqual([...allowed(ALLOWANCE), ...refused(4)]);
      // Nor can a client spend another's allowance by claiming its address.
      const claimed = await askForCode('127.0.0.4', { 'X-Forwarded-For': '127.0.0.3' });
      expect(claimed.status).toBe(200);
    });
  },
);
