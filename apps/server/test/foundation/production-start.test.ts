import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../../src/config.js';
import { siteHeaders } from '../helpers/factories.js';
import { createTestApp, type TestApp } from '../helpers/test-app.js';

const SECRETS = {
  JWT_SECRET: 'j'.repeat(40),
  HMAC_SECRET: 'h'.repeat(40),
  PAYMENT_CLIENT_SECRET: 'p'.repeat(40),
  PAYMENT_CALLBACK_SECRET: 'c'.repeat(40),
};
const PROVIDERS = {
  PUBLIC_URL: 'https://tunes.example.mn',
  PAYMENT_PROVIDER_URL: 'https://pay.example.mn',
  PAYMENT_CLIENT_ID: 'tunes-live',
  SMS_PROVIDER_URL: 'https://sms.example.mn/send',
  SMTP_URL: 'smtps://mailer:secret@smtp.example.mn',
};
const production = (env: Record<string, string>) => () =>
  loadConfig({ NODE_ENV: 'production', ...SECRETS, ...env });

describe('a production start (security.md)', () => {
  it('stops without a real payment, SMS or mail provider, naming each variable', () => {
    const start = production({ PUBLIC_URL: PROVIDERS.PUBLIC_URL });
    expect(start).toThrow(ConfigError);
    expect(start).toThrow(/PAYMENT_PROVIDER_URL: must name the card gateway in production/);
    expect(start).toThrow(/SMS_PROVIDER_URL: must name the SMS provider/);
    expect(start).toThrow(/SMTP_URL: must name the mail server/);
  });

  it('stops with a localhost PUBLIC_URL or none', () => {
    const { PUBLIC_URL: _, ...rest } = PROVIDERS;
    expect(production(rest)).toThrow(/PUBLIC_URL: must be set in production/);
    for (const url of ['http://localhost:3000', 'http://127.0.0.1', 'http://[::1]:8080']) {
      expect(production({ ...PROVIDERS, PUBLIC_URL: url })).toThrow(/PUBLIC_URL: must not be a localhost/);
    }
  });

  it('stops with the sandbox client id against a real gateway', () => {
    const { PAYMENT_CLIENT_ID: _, ...rest } = PROVIDERS;
    expect(production(rest)).toThrow(/PAYMENT_CLIENT_ID: must be set in production/);
  });

  it('starts with every provider, or with a written opt-out for each one missing', () => {
    expect(production(PROVIDERS)()).toMatchObject({ isProduction: true, paymentsEnabled: true });
    const staging = production({
      PUBLIC_URL: PROVIDERS.PUBLIC_URL,
      ALLOW_NO_PAYMENTS: 'true',
      ALLOW_NO_SMS: 'true',
      ALLOW_NO_EMAIL: 'true',
    })();
    expect(staging.paymentsEnabled).toBe(false);
  });
});

describe('a production app', () => {
  let live: TestApp;
  let staging: TestApp;
  beforeAll(async () => {
    live = await createTestApp({ NODE_ENV: 'production', ...SECRETS, ...PROVIDERS });
    staging = await createTestApp({
      NODE_ENV: 'production',
      ...SECRETS,
      PUBLIC_URL: PROVIDERS.PUBLIC_URL,
      ALLOW_NO_PAYMENTS: 'true',
      ALLOW_NO_SMS: 'true',
      ALLOW_NO_EMAIL: 'true',
    });
  });
  afterAll(async () => {
    await live.close();
    await staging.close();
  });

  it('mounts neither the sandbox gateway nor the development tools', async () => {
    for (const url of ['/sandbox-gateway/rest/token', '/sandbox-gateway/pay?token=x', '/dev/outbox?to=1']) {
      for (const method of ['GET', 'POST'] as const) {
        const answer = await live.app.inject({ method, url });
        expect(answer.statusCode, `${method} ${url}`).toBe(404);
      }
    }
  });

  it('refuses checkouts honestly on a site that opted out of payments', async () => {
    const user = await staging.db
      .insertInto('users')
      .values({ username: 'staging-user' })
      .returning('id')
      .executeTakeFirstOrThrow();
    const answer = await staging.app.inject({
      method: 'POST',
      url: '/api/payments/checkout',
      headers: await siteHeaders(staging, user.id),
      payload: { MerchantCode: 'PREMIUM_1M' },
    });
    expect(answer.statusCode).toBe(503);
    expect(answer.json()).toMatchObject({ error: 'payments_unavailable' });
  });
});
