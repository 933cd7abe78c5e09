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
  QPAY_URL: 'https://merchant.qpay.example.mn',
  QPAY_CLIENT_ID: 'TUNES',
  QPAY_CLIENT_SECRET: 'q'.repeat(20),
  EBARIMT_URL: 'http://posapi.internal:7080',
  EBARIMT_MERCHANT_TIN: '12345678901',
};
const OPT_OUTS = {
  ALLOW_NO_PAYMENTS: 'true',
  ALLOW_NO_QPAY: 'true',
  ALLOW_NO_EBARIMT: 'true',
  ALLOW_NO_SMS: 'true',
  ALLOW_NO_EMAIL: 'true',
};
const production = (env: Record<string, string>) => () =>
  loadConfig({ NODE_ENV: 'production', ...SECRETS, ...env });

describe('a production start (security.md)', () => {
  it('stops without a real payment, QPay, e-barimt, SMS or mail provider, naming each variable', () => {
    const start = production({ PUBLIC_URL: PROVIDERS.PUBLIC_URL });
    expect(start).toThrow(ConfigError);
    expect(start).toThrow(/PAYMENT_PROVIDER_URL: must name the card gateway in production/);
    expect(start).toThrow(/QPAY_URL: must name the QPay merchant API in production/);
    expect(start).toThrow(/EBARIMT_URL: must name the tax authority's PosAPI in production/);
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

  it('stops with the sandbox QPay credentials or merchant TIN against the real services', () => {
    const { QPAY_CLIENT_ID: _, QPAY_CLIENT_SECRET: __, EBARIMT_MERCHANT_TIN: ___, ...rest } = PROVIDERS;
    const start = production(rest);
    expect(start).toThrow(/QPAY_CLIENT_ID: must be set in production/);
    expect(start).toThrow(/QPAY_CLIENT_SECRET: must be set in production/);
    expect(start).toThrow(/EBARIMT_MERCHANT_TIN: must be set in production/);
  });

  it('starts with every provider, or with a written opt-out for each one missing', () => {
    expect(production(PROVIDERS)()).toMatchObject({
      isProduction: true,
      paymentsEnabled: true,
      qpayEnabled: true,
      ebarimtEnabled: true,
    });
    const staging = production({ PUBLIC_URL: PROVIDERS.PUBLIC_URL, ...OPT_OUTS })();
    expect(staging).toMatchObject({ paymentsEnabled: false, qpayEnabled: false, ebarimtEnabled: false });
  });
});

describe('a production start refuses test endpoints (security.md)', () => {
  const refusal = (name: string) =>
    new RegExp(`${name}: .*not in production \\(a staging site sets ALLOW_TEST_PROVIDERS=true\\)`);

  it("stops on QPay's public test systems, both the described sandbox server and the client's", () => {
    for (const url of [
      'https://merchant-sandbox.qpay.mn',
      'https://sandbox.qpay.mn/v2',
      'https://Sandbox.QPay.mn.',
    ]) {
      const start = production({ ...PROVIDERS, QPAY_URL: url });
      expect(start, url).toThrow(refusal('QPAY_URL'));
      expect(start, url).toThrow(/QPAY_URL: is QPay's test system/);
    }
  });

  it('stops on a sandbox path of ours for the card gateway, QPay and PosAPI', () => {
    const cases = {
      PAYMENT_PROVIDER_URL: 'https://tunes.example.mn/sandbox-gateway',
      QPAY_URL: 'https://tunes.example.mn/sandbox-qpay/',
      EBARIMT_URL: 'https://tunes.example.mn/sandbox-ebarimt',
      EBARIMT_INFO_URL: 'https://staging.tunes.example.mn/sandbox-ebarimt/api',
    };
    for (const [name, url] of Object.entries(cases)) {
      const start = production({ ...PROVIDERS, [name]: url });
      expect(start, name).toThrow(refusal(name));
      expect(start, name).toThrow(new RegExp(`${name}: is a built-in sandbox`));
    }
  });

  it("stops on the tax authority's staging e-barimt API", () => {
    for (const name of ['EBARIMT_URL', 'EBARIMT_INFO_URL']) {
      const start = production({ ...PROVIDERS, [name]: 'https://st-api.ebarimt.mn' });
      expect(start, name).toThrow(refusal(name));
      expect(start, name).toThrow(new RegExp(`${name}: is the tax authority's staging API`));
    }
  });

  it('takes the real hosts and paths that only look alike', () => {
    const config = production({
      ...PROVIDERS,
      QPAY_URL: 'https://merchant.qpay.mn',
      EBARIMT_INFO_URL: 'https://api.ebarimt.mn',
      PAYMENT_PROVIDER_URL: 'https://pay.example.mn/sandbox-gateway-docs/v1',
    })();
    expect(config.QPAY_URL).toBe('https://merchant.qpay.mn');
  });

  it('starts a staging site on test endpoints with ALLOW_TEST_PROVIDERS=true', () => {
    const staging = production({
      ...PROVIDERS,
      ALLOW_TEST_PROVIDERS: 'true',
      QPAY_URL: 'https://merchant-sandbox.qpay.mn',
      PAYMENT_PROVIDER_URL: 'https://dev.tunes.example.mn/sandbox-gateway',
      EBARIMT_URL: 'https://dev.tunes.example.mn/sandbox-ebarimt',
      EBARIMT_INFO_URL: 'https://st-api.ebarimt.mn',
    })();
    expect(staging).toMatchObject({
      isProduction: true,
      qpayEnabled: true,
      QPAY_URL: 'https://merchant-sandbox.qpay.mn',
    });
  });

  it('stops with a plain-http PUBLIC_URL', () => {
    expect(production({ ...PROVIDERS, PUBLIC_URL: 'http://tunes.example.mn' })).toThrow(
      /PUBLIC_URL: must be https in production .*ALLOW_HTTP_PUBLIC_URL=true/,
    );
  });

  it('starts a staging site on plain http with ALLOW_HTTP_PUBLIC_URL=true', () => {
    const staging = production({
      ...PROVIDERS,
      PUBLIC_URL: 'http://staging.tunes.example.mn',
      ALLOW_HTTP_PUBLIC_URL: 'true',
    })();
    expect(staging.PUBLIC_URL).toBe('http://staging.tunes.example.mn');
    // The opt-out is for plain http, not for a localhost address.
    expect(
      production({ ...PROVIDERS, PUBLIC_URL: 'http://localhost:3000', ALLOW_HTTP_PUBLIC_URL: 'true' }),
    ).toThrow(/PUBLIC_URL: must not be a localhost/);
  });

  it('names every test endpoint at once, so one start shows each variable to fix', () => {
    const start = production({
      ...PROVIDERS,
      PUBLIC_URL: 'http://tunes.example.mn',
      QPAY_URL: 'https://merchant-sandbox.qpay.mn',
      PAYMENT_PROVIDER_URL: 'https://tunes.example.mn/sandbox-gateway',
    });
    expect(start).toThrow(/QPAY_URL: is QPay's test system/);
    expect(start).toThrow(/PAYMENT_PROVIDER_URL: is a built-in sandbox/);
    expect(start).toThrow(/PUBLIC_URL: must be https/);
  });
});

describe('a production start with MessagePro as the SMS provider', () => {
  const { SMS_PROVIDER_URL: _, ...withoutSmsUrl } = PROVIDERS;

  it('needs no SMS_PROVIDER_URL (MessagePro has its own) but its key and special number', () => {
    const messagePro = {
      SMS_PROVIDER: 'messagepro',
      MESSAGEPRO_API_KEY: 'k'.repeat(32),
      MESSAGEPRO_FROM: '72001234',
    };
    expect(production({ ...withoutSmsUrl, ...messagePro })()).toMatchObject({ SMS_PROVIDER: 'messagepro' });
    const start = production({ ...withoutSmsUrl, SMS_PROVIDER: 'messagepro' });
    expect(start).toThrow(/MESSAGEPRO_API_KEY: must be set with SMS_PROVIDER=messagepro/);
    expect(start).toThrow(/MESSAGEPRO_FROM: must be set with SMS_PROVIDER=messagepro/);
    expect(start).not.toThrow(/SMS_PROVIDER_URL/);
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
      ...OPT_OUTS,
    });
  });
  afterAll(async () => {
    await live.close();
    await staging.close();
  });

  it('mounts neither the sandboxes (card, QPay, e-barimt) nor the development tools', async () => {
    for (const url of [
      '/sandbox-gateway/rest/token',
      '/sandbox-gateway/pay?token=x',
      '/sandbox-qpay/v2/auth/token',
      '/sandbox-qpay/v2/invoice',
      '/sandbox-ebarimt/rest/receipt',
      '/dev/outbox?to=1',
    ]) {
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
