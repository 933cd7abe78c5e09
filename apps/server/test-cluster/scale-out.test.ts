import { Redis } from 'ioredis';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
// @ts-expect-error: a plain-JavaScript launcher shared with `npm run cluster`.
import { startCluster } from '../../../scripts/lib/cluster.mjs';

/**
 * The scale-out of docs/operations.md, shown: three built API processes behind HAProxy on one
 * PostgreSQL and one Redis. Sign-ins, purchases and invitation accepts go through the balancer
 * while one process is killed and restarted; limits are shared; due jobs run once; published
 * content reaches every process. Needs a build, DATABASE_URL, REDIS_URL and HAProxy.
 */
interface Cluster {
  url: string;
  ports: number[];
  kill(index: number): Promise<void>;
  restart(index: number): Promise<void>;
  output(index: number): string;
  stop(): Promise<void>;
}

const STORE = { StoreId: 'MNCO' };
const METRICS_TOKEN = 'cluster-metrics-token-0123456789';
const adminUrl = new URL(process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres');
const databaseName = `tunes_cluster_${process.pid}`;
const databaseUrl = (() => {
  const url = new URL(adminUrl);
  url.pathname = `/${databaseName}`;
  return url.toString();
})();
const redisUrl = `${(process.env.REDIS_URL ?? 'redis://127.0.0.1:6379').replace(/\/\d*$/, '')}/7`;

let cluster: Cluster;
let db: pg.Client;

beforeAll(async () => {
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
    env: {
      SENDS_PER_CLIENT_HOURLY: '100000',
      SMS_HOURLY_BUDGET: '100000',
      PAYMENT_CHECK_INTERVAL_SECONDS: '1',
      METRICS_TOKEN,
    },
  });
  db = new pg.Client({ connectionString: databaseUrl });
  await db.connect();
}, 240_000);

afterAll(async () => {
  await db?.end();
  await cluster?.stop();
  const admin = new pg.Client({ connectionString: adminUrl.toString() });
  await admin.connect();
  await admin.query(`drop database if exists ${databaseName} with (force)`);
  await admin.end();
}, 60_000);

/**
 * The client's part: a request that never reached a process (connection refused, or the
 * balancer's 502/503 while a process died) is sent again, as a browser's retry would.
 */
async function call(base: string, path: string, init: RequestInit = {}, tries = 8): Promise<Response> {
  for (let attempt = 1; ; attempt++) {
    try {
      const response = await fetch(`${base}${path}`, { ...init, redirect: 'manual' });
      // 503: the balancer had no process to send it to. A 502 may have been done (the process
      // died after reading it): the client sends it again, and the server's idempotence answers.
      if ((response.status === 502 || response.status === 503) && attempt < tries) {
        await new Promise((resolve) => setTimeout(resolve, 200 * attempt));
        continue;
      }
      return response;
    } catch (error) {
      if (attempt >= tries) throw error;
      await new Promise((resolve) => setTimeout(resolve, 200 * attempt));
    }
  }
}

const json = (body: unknown) => ({
  method: 'POST',
  headers: { ...STORE, 'content-type': 'application/json' },
  body: JSON.stringify(body),
});
const bearer = (token: string) => ({ ...STORE, authorization: `Bearer ${token}` });

/** The newest code in the outbox of `msisdn`, waiting up to `waitMs` for one to arrive. */
async function codeSentTo(msisdn: string, waitMs = 5000): Promise<string | undefined> {
  const deadline = Date.now() + waitMs;
  for (;;) {
    const messages = (await (await call(cluster.url, `/dev/outbox?to=${msisdn}`)).json()) as {
      code: string | null;
    }[];
    const code = messages[0]?.code;
    if (code) return code;
    if (Date.now() > deadline) return undefined;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/**
 * Asks for a code to `msisdn` and answers it, as the site's "send again" would after a crash:
 * a request that reached a process which sent the code and died before answering is sent again
 * and refused as "sent moments ago" (429), and the code it sent is the one to use; a process
 * that died after taking the resend window but before its code was stored leaves a 429 and no
 * code, and the client asks again once the window has passed.
 */
async function newCode(base: string, msisdn: string, previous?: string): Promise<string> {
  for (let attempt = 1; attempt <= 4; attempt++) {
    const sent = await call(base, `/api/users/requestotp?msisdn=${msisdn}&language=en&otpprovider=sms`, {
      headers: STORE,
    });
    expect([200, 429], await sent.clone().text()).toContain(sent.status);
    const code = await codeSentTo(msisdn);
    if (code && code !== previous) return code;
    const retryAfter = Number(sent.headers.get('retry-after') ?? 1);
    await new Promise((resolve) => setTimeout(resolve, Math.min(retryAfter, 31) * 1000));
  }
  throw new Error(`no new code reached ${msisdn}`);
}

let numbers = 0;
const nextMsisdn = () =>
  `9769${String(process.pid % 1000).padStart(3, '0')}${String(numbers++).padStart(4, '0')}`;

/** A listener signed up by mobile through the balancer; answers the access token and id. */
async function signUp(base = cluster.url) {
  const msisdn = nextMsisdn();
  const code = await newCode(base, msisdn);
  const form = (grant: Record<string, string>) => ({
    method: 'POST',
    headers: { ...STORE, 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams(grant).toString(),
  });
  const tokenGrant = { grant_type: 'msisdn', msisdn, code, skip_decryption: 'true' };
  let answer = await call(base, '/api/oauth2/token', form(tokenGrant));
  if (answer.status === 400) {
    const registered = await call(
      base,
      '/api/users/registerbymsisdn',
      json({ PhoneNumber: msisdn.slice(3), CountryCode: 976, Token: code }),
    );
    // A register whose first answer was lost is sent again: the account exists, once.
    expect([200, 201, 409]).toContain(registered.status);
    answer = await call(base, '/api/oauth2/token', form(tokenGrant));
  }
  if (answer.status === 403) {
    // A grant that reached a process which used the code and died before answering was sent
    // again and found the code spent (one use per code): the client asks for a new code, once the
    // resend window allows, as the site's "send again" does.
    answer = await call(
      base,
      '/api/oauth2/token',
      form({ ...tokenGrant, code: await newCode(base, msisdn, code) }),
    );
  }
  expect(answer.status, await answer.clone().text()).toBe(200);
  const tokens = (await answer.json()) as { access_token: string };
  const sub = JSON.parse(Buffer.from(tokens.access_token.split('.')[1] ?? '', 'base64url').toString())
    .sub as string;
  return { msisdn, token: tokens.access_token, sub };
}

/** Buys a plan through the balancer and the sandbox gateway's card page, as a browser does. */
async function buy(token: string, MerchantCode: string) {
  const started = await call(cluster.url, '/api/payments/checkout', {
    ...json({ MerchantCode }),
    headers: { ...bearer(token), 'content-type': 'application/json' },
  });
  expect(started.status, await started.clone().text()).toBe(200);
  const { url, invoiceId } = (await started.json()) as { url: string; invoiceId: string };
  const gateway = new URL(url);
  const page = await (await call(cluster.url, gateway.pathname + gateway.search)).text();
  const hidden = (name: string) => new RegExp(`name="${name}" value="([^"]+)"`).exec(page)?.[1] ?? '';
  const paid = await call(cluster.url, '/sandbox-gateway/payment/pay', {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({
      token: hidden('token'),
      form_key: hidden('form_key'),
      card_number: '4242424242424242',
      expiry: '12/39',
      cvc: '123',
    }).toString(),
  });
  // Paid once; a retried post after a lost answer finds the payment closed (409).
  expect([303, 409]).toContain(paid.status);
  const back = new URL(
    String(paid.headers.get('location') ?? `/api/payments/return?invoiceId=${invoiceId}`),
    cluster.url,
  );
  await call(cluster.url, back.pathname + back.search);
  return invoiceId;
}

describe.skipIf(!process.env.DATABASE_URL || !process.env.REDIS_URL)('three processes behind HAProxy', () => {
  it('share their limits: a code resent through another process is refused', async () => {
    const msisdn = nextMsisdn();
    const [a, b] = cluster.ports.map((port) => `http://127.0.0.1:${port}`);
    const first = await fetch(`${a}/api/users/requestotp?msisdn=${msisdn}&language=en&otpprovider=sms`, {
      headers: STORE,
    });
    expect(first.status).toBe(200);
    const again = await fetch(`${b}/api/users/requestotp?msisdn=${msisdn}&language=en&otpprovider=sms`, {
      headers: STORE,
    });
    expect(again.status).toBe(429);
    expect(Number(again.headers.get('retry-after'))).toBeGreaterThan(0);
  });

  it('lose nothing and do nothing twice while one process is killed and restarted', async () => {
    const owners = await Promise.all(Array.from({ length: 4 }, () => signUp()));
    for (const owner of owners) await buy(owner.token, 'PREMIUM_FAMILY_1M');

    // Three invitation codes per owner, made before the crash (a code is a reserved seat).
    const codes: { code: string; subscriptionId: string }[] = [];
    for (const owner of owners) {
      const subscription = await db.query<{ id: string }>(
        'select id from subscriptions where owner_id = $1',
        [owner.sub],
      );
      const subscriptionId = subscription.rows[0]?.id ?? '';
      for (let i = 0; i < 3; i++) {
        const invited = await call(cluster.url, `/api/subscription/${subscriptionId}/invitation-code`, {
          method: 'POST',
          headers: bearer(owner.token),
        });
        expect(invited.status, await invited.clone().text()).toBe(201);
        codes.push({ code: ((await invited.json()) as { Code: string }).Code, subscriptionId });
      }
    }

    const crash = (async () => {
      await new Promise((resolve) => setTimeout(resolve, 300));
      await cluster.kill(1);
      await new Promise((resolve) => setTimeout(resolve, 1500));
      await cluster.restart(1);
    })();
    // Listeners sign up and accept the codes, and new buyers pay, while process 2 dies and returns.
    const members = await Promise.all(
      codes.map(async ({ code, subscriptionId }) => {
        const member = await signUp();
        const accepted = await call(cluster.url, `/api/subscription/invitations/${code}`, {
          method: 'POST',
          headers: bearer(member.token),
        });
        // A retried accept whose first answer was lost finds the code used: still one seat.
        expect([200, 404]).toContain(accepted.status);
        return { member, subscriptionId };
      }),
    );
    const buyers = await Promise.all(Array.from({ length: 4 }, () => signUp()));
    const invoices = await Promise.all(buyers.map((buyer) => buy(buyer.token, 'PREMIUM_1M')));
    // The metrics answer while the load runs, with the families an operator watches.
    const metrics = await call(cluster.url, '/metrics', {
      headers: { authorization: `Bearer ${METRICS_TOKEN}` },
    });
    expect(metrics.status).toBe(200);
    const families = await metrics.text();
    for (const family of [
      'tunes_http_requests_total',
      'tunes_http_request_duration_seconds_bucket',
      'tunes_payments_total',
      'tunes_job_queue_depth',
      'tunes_outbox_backlog',
      'tunes_db_pool_connections',
    ]) {
      expect(families).toContain(family);
    }
    await crash;
    expect((await fetch(`http://127.0.0.1:${cluster.ports[1]}/api/health`)).status).toBe(200);

    // Every member joined exactly one plan, and no plan holds more than its three seats.
    for (const { member, subscriptionId } of members) {
      const seats = await db.query('select subscription_id from subscription_members where user_id = $1', [
        member.sub,
      ]);
      expect(seats.rows).toEqual([{ subscription_id: subscriptionId }]);
    }
    const fullest = await db.query<{ count: number }>(
      'select count(*)::int as count from subscription_members group by subscription_id order by 1 desc limit 1',
    );
    expect(fullest.rows[0]?.count).toBe(3);
    // Every account exists once; every paid invoice activated one period.
    const accounts = await db.query<{ count: number }>(
      'select count(*)::int as count from users group by phone_number having count(*) > 1',
    );
    expect(accounts.rows).toEqual([]);
    for (const invoiceId of invoices) {
      const periods = await db.query('select id from subscriptions where invoice_id = $1', [invoiceId]);
      expect(periods.rows).toHaveLength(1);
    }
    expect(cluster.output(1)).not.toContain('"level":60');
  }, 240_000);

  it('run each due renewal once across the three processes', async () => {
    const plan = await db.query<{ id: number }>("select id from packages where merchant_code = 'PREMIUM_1M'");
    const planId = plan.rows[0]?.id;
    const due: string[] = [];
    for (let i = 0; i < 30; i++) {
      const owner = await db.query<{ id: string }>(
        "insert into users (username, phone_number, first_name) values ($1, $1, 'Due') returning id",
        [`9768${String(process.pid % 1000).padStart(3, '0')}${String(i).padStart(4, '0')}`],
      );
      const ownerId = owner.rows[0]?.id ?? '';
      await db.query(
        `insert into sandbox_gateway_cards (token, client_id, card_number, expires, created_at)
         values ($1, 'sandbox-client', '4242424242424242', '12/39', now())`,
        [`card_due_${i}_${process.pid}`],
      );
      await db.query(
        `insert into saved_cards (user_id, provider_token, brand, last4, expires, saved_at)
         values ($1, $2, 'Visa', '4242', '12/39', now())`,
        [ownerId, `card_due_${i}_${process.pid}`],
      );
      await db.query(
        `insert into subscriptions (owner_id, package_id, start_date, end_date, is_auto_renew, source_type, next_billing_at)
         values ($1, $2, now() - interval '31 days', now() - interval '1 minute', true, 'Web', now() - interval '1 minute')`,
        [ownerId, planId],
      );
      due.push(ownerId);
    }
    // The processes' workers find them on their own (a scan every second).
    const deadline = Date.now() + 90_000;
    let paid = 0;
    while (Date.now() < deadline) {
      const result = await db.query<{ count: number }>(
        "select count(*)::int as count from payment_invoices where kind = 'renewal' and status = 'paid' and user_id = any($1)",
        [due],
      );
      paid = result.rows[0]?.count ?? 0;
      if (paid === due.length) break;
      await new Promise((resolve) => setTimeout(resolve, 500));
    }
    expect(paid).toBe(due.length);
    const charges = await db.query<{ invoice_id: string; count: number }>(
      `select c.invoice_id, count(*)::int as count from sandbox_gateway_charges c
       join payment_invoices i on i.invoice_id = c.invoice_id where i.user_id = any($1) group by c.invoice_id`,
      [due],
    );
    expect(charges.rows).toHaveLength(due.length);
    expect(charges.rows.every((row) => row.count === 1)).toBe(true);
    const messages = await db.query<{ count: number }>(
      "select count(*)::int as count from billing_notices where key like 'charged:%'",
    );
    expect(messages.rows[0]?.count).toBe(due.length);
  }, 120_000);

  it('show published content on every process at once', async () => {
    const title = `Cluster banner ${Date.now()}`;
    // What an import or the console's publish does: new landing data and the revision bumped.
    await db.query('update content_landing set banner_title_en = $1', [title]);
    await db.query('update content_state set revision = revision + 1');
    // Each process re-reads the revision at most a second after its last look (decision 0006).
    await new Promise((resolve) => setTimeout(resolve, 1100));
    for (const port of cluster.ports) {
      const landing = await (
        await call(`http://127.0.0.1:${port}`, '/api/landing-page', { headers: STORE })
      ).text();
      expect(landing).toContain(title);
    }
  });
});
