import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { command as catalogImport } from '../../src/admin/commands/catalog-import.js';
import { runCli } from '../../src/admin/run-cli.js';
import { DEMO_CATALOG_FILE } from '../../src/modules/catalog/catalog-file.js';
import { readiness } from '../../src/modules/console/readiness.js';
import { grant, requestOtp } from '../helpers/accounts.js';
import { bearer, randomMsisdn, STORE } from '../helpers/factories.js';
import { checkout, PAID_CARD, payOnGateway, returnToShop } from '../helpers/premium.js';
import { createTestApp, type TestApp, testDatabaseKind } from '../helpers/test-app.js';

/**
 * Issue 38: a production site on an empty database opens for business with `catalog:import`
 * alone. The card gateway is the sandbox of a second server (a staging site's test provider,
 * ALLOW_TEST_PROVIDERS), the SMS provider a stand-in that keeps what it is sent; calls between
 * them go through each server's `inject` instead of a network.
 */

const SITE = 'https://tunes.example.mn';
const GATEWAY = 'https://pay.example.test';
const SMS_PROVIDER = 'https://sms.example.test/send';
const SECRETS = {
  JWT_SECRET: 'j'.repeat(40),
  HMAC_SECRET: 'h'.repeat(40),
  PAYMENT_CLIENT_SECRET: 'p'.repeat(40),
  PAYMENT_CALLBACK_SECRET: 'c'.repeat(40),
};
const PRODUCTION = {
  NODE_ENV: 'production',
  ...SECRETS,
  PUBLIC_URL: SITE,
  PAYMENT_PROVIDER_URL: `${GATEWAY}/sandbox-gateway`,
  PAYMENT_CLIENT_ID: 'tunes-live',
  ALLOW_TEST_PROVIDERS: 'true',
  SMS_PROVIDER_URL: SMS_PROVIDER,
  ALLOW_NO_QPAY: 'true',
  ALLOW_NO_EBARIMT: 'true',
  ALLOW_NO_EMAIL: 'true',
};

let site: TestApp;
let gateway: TestApp;
const texts: { to: string; text: string }[] = [];
const realFetch = globalThis.fetch;

/** The servers' outgoing calls: to each other through `inject`, SMS kept, anything else as it was. */
async function network(input: string | URL | Request, init?: RequestInit): Promise<Response> {
  const request = new Request(input, init);
  const url = new URL(request.url);
  if (url.href === SMS_PROVIDER) {
    texts.push((await request.json()) as { to: string; text: string });
    return Response.json({ accepted: true });
  }
  const apps: Record<string, FastifyInstance> = { [SITE]: site.app, [GATEWAY]: gateway.app };
  const app = apps[url.origin];
  if (!app) return realFetch(input, init);
  const body = request.body ? Buffer.from(await request.arrayBuffer()) : undefined;
  const answer = await app.inject({
    method: request.method as 'GET' | 'POST' | 'DELETE',
    url: url.pathname + url.search,
    headers: Object.fromEntries(request.headers),
    ...(body ? { payload: body } : {}),
  });
  const headers = new Headers();
  for (const [name, value] of Object.entries(answer.headers)) {
    for (const one of [value ?? []].flat()) headers.append(name, String(one));
  }
  const empty = [204, 304].includes(answer.statusCode);
  return new Response(empty ? null : answer.rawPayload, { status: answer.statusCode, headers });
}

/** `npm run admin -- catalog:import <file>` with the site's production settings. */
async function importCatalog(file: string): Promise<string> {
  let output = '';
  if (testDatabaseKind === 'postgres') {
    // The command line itself, on the site's PostgreSQL database.
    const code = await runCli(['catalog:import', file], {
      stdout: (text) => {
        output += text;
      },
      stderr: (text) => {
        output += text;
      },
      env: { ...PRODUCTION, LOG_LEVEL: 'silent', DATABASE_URL: site.config.DATABASE_URL ?? '' },
    });
    expect(code, output).toBe(0);
  } else {
    // The embedded database lives in this process: the command, given the site's database.
    await catalogImport.run([file], {
      config: site.config,
      db: async () => site.db,
      print: (line) => {
        output += `${line}\n`;
      },
    });
  }
  return output;
}

/** The code of the newest SMS to `msisdn`, as the listener reads it on their phone. */
async function codeSentTo(msisdn: string): Promise<string> {
  await vi.waitFor(() => expect(texts.some((sms) => sms.to === msisdn)).toBe(true));
  const text = texts.filter((sms) => sms.to === msisdn).at(-1)?.text ?? '';
  const code = /\b(\d{4})\b/.exec(text)?.[1];
  if (!code) throw new Error(`no code in "${text}"`);
  return code;
}

beforeAll(async () => {
  vi.stubGlobal('fetch', network);
  site = await createTestApp(PRODUCTION);
  gateway = await createTestApp({
    PUBLIC_URL: GATEWAY,
    PAYMENT_CLIENT_ID: PRODUCTION.PAYMENT_CLIENT_ID,
    PAYMENT_CLIENT_SECRET: SECRETS.PAYMENT_CLIENT_SECRET,
    PAYMENT_CALLBACK_SECRET: SECRETS.PAYMENT_CALLBACK_SECRET,
  });
});
afterAll(async () => {
  await site?.close();
  await gateway?.close();
  vi.unstubAllGlobals();
});

describe('opening a production site for business (issue 38)', () => {
  it('an empty production database has nothing to sell, and the console says what is missing', async () => {
    expect(site.config.isProduction).toBe(true);
    expect(await site.db.selectFrom('packages').select('id').execute()).toEqual([]);
    const before = await readiness(site.deps);
    expect(before.ready).toBe(false);
    expect(before.checks.filter((check) => check.status === 'missing')).toEqual([
      {
        id: 'plans',
        status: 'missing',
        reason: 'none',
        count: 0,
        command: 'npm run admin -- catalog:import <catalog.yaml>',
      },
      { id: 'landing-en', status: 'missing', reason: 'none', command: expect.any(String) },
      { id: 'landing-mn', status: 'missing', reason: 'none', command: expect.any(String) },
    ]);
  });

  it('opens with the import command alone, and a listener signs in and buys a plan by card', async () => {
    const output = await importCatalog(DEMO_CATALOG_FILE);
    expect(output).toContain('Plans: 5 added');
    const after = await readiness(site.deps);
    expect(after.ready).toBe(true);
    expect(after.checks.find((check) => check.id === 'plans')).toEqual({
      id: 'plans',
      status: 'ok',
      count: 3,
    });
    expect(after.checks.find((check) => check.id === 'card-payments')).toMatchObject({
      status: 'notice',
      reason: 'test-provider',
    });

    const plans = await site.app.inject({
      method: 'GET',
      url: '/api/packages/allplans?merchantId=14',
      headers: STORE,
    });
    expect(plans.json()).toContainEqual(expect.objectContaining({ MerchantCode: 'PREMIUM_1M', Cost: 6900 }));

    // The listener signs in with the code the SMS provider carried.
    const msisdn = randomMsisdn();
    expect((await requestOtp(site, { msisdn, language: 'en' })).statusCode).toBe(200);
    const code = await codeSentTo(msisdn);
    const unknown = await grant(site, { grant_type: 'msisdn', msisdn, code });
    expect(unknown.json()).toMatchObject({ error: '604' });
    const registered = await site.app.inject({
      method: 'POST',
      url: '/api/users/registerbymsisdn',
      headers: STORE,
      payload: { PhoneNumber: msisdn.slice(3), CountryCode: 976, Token: code },
    });
    expect(registered.statusCode, registered.body).toBeLessThan(300);
    const tokens = await grant(site, { grant_type: 'msisdn', msisdn, code });
    expect(tokens.statusCode, tokens.body).toBe(200);
    const { access_token } = tokens.json() as { access_token: string };

    // …and buys Premium by card on the gateway's page, coming back through the site.
    const started = await checkout(site, bearer(access_token), { MerchantCode: 'PREMIUM_1M' });
    expect(started.statusCode, started.body).toBe(200);
    const { url, invoiceId } = started.json() as { url: string; invoiceId: string };
    const gatewayUrl = new URL(url);
    expect(gatewayUrl.origin).toBe(GATEWAY);
    const back = await payOnGateway(gateway, gatewayUrl, PAID_CARD);
    expect(back.origin).toBe(SITE);
    expect(await returnToShop(site, back)).toMatch(/\/success/);

    const invoice = await site.db
      .selectFrom('payment_invoices')
      .select(['status', 'amount', 'currency'])
      .where('invoice_id', '=', invoiceId)
      .executeTakeFirstOrThrow();
    expect(invoice).toEqual({ status: 'paid', amount: 6900, currency: 'MNT' });
    const sub = (tokens.json() as { access_token: string }).access_token.split('.')[1] ?? '';
    const userId = JSON.parse(Buffer.from(sub, 'base64url').toString()).sub as string;
    const subscriptions = await site.app.inject({
      method: 'GET',
      url: `/api/users/${userId}/subscriptions`,
      headers: bearer(access_token),
    });
    expect(subscriptions.statusCode, subscriptions.body).toBe(200);
    expect(JSON.stringify(subscriptions.json())).toContain('PREMIUM_1M');
    const period = await site.db
      .selectFrom('subscriptions')
      .select(['end_date'])
      .where('owner_id', '=', userId)
      .executeTakeFirstOrThrow();
    expect(period.end_date.getTime()).toBeGreaterThan(site.clock.now().getTime());
  });

  it('a second run of the same file changes nothing', async () => {
    expect(await importCatalog(DEMO_CATALOG_FILE)).toBe(
      'Nothing changed: the site already has this catalog (5 plans, the landing content).\n',
    );
  });
});
