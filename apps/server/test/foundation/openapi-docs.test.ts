import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../helpers/test-app.js';

/**
 * security.md: the API's documentation pages (/api/docs, Swagger UI, and its JSON) are served in
 * production only when the operator turns them on with API_DOCS=true; outside production always.
 */
const STAGING = {
  NODE_ENV: 'production',
  JWT_SECRET: 'j'.repeat(40),
  HMAC_SECRET: 'h'.repeat(40),
  PAYMENT_CLIENT_SECRET: 'p'.repeat(40),
  PAYMENT_CALLBACK_SECRET: 'c'.repeat(40),
  PUBLIC_URL: 'https://tunes.example.mn',
  ALLOW_NO_PAYMENTS: 'true',
  ALLOW_NO_QPAY: 'true',
  ALLOW_NO_EBARIMT: 'true',
  ALLOW_NO_SMS: 'true',
  ALLOW_NO_EMAIL: 'true',
};
const PAGES = ['/api/docs', '/api/docs/json', '/api/docs/static/index.html'];

let production: TestApp;
let withDocs: TestApp;
beforeAll(async () => {
  production = await createTestApp(STAGING);
  withDocs = await createTestApp({ ...STAGING, API_DOCS: 'true' });
});
afterAll(async () => {
  await production.close();
  await withDocs.close();
});

const statusOf = async (t: TestApp, url: string) => (await t.app.inject({ method: 'GET', url })).statusCode;

describe('/api/docs', () => {
  it('is not served in production unless API_DOCS=true', async () => {
    for (const url of PAGES) expect(await statusOf(production, url), url).toBe(404);
    const answer = await production.app.inject({ method: 'GET', url: '/api/docs/json' });
    expect(answer.json()).toMatchObject({ error: 'not_found' });
  });

  // Outside production every suite that reads /api/docs/json shows it is on (openapi-security.test.ts).
  it('is served in production with API_DOCS=true', async () => {
    for (const url of PAGES) expect(await statusOf(withDocs, url), url).toBeLessThan(400);
    const document = (await withDocs.app.inject({ method: 'GET', url: '/api/docs/json' })).json();
    expect(document).toMatchObject({ info: { title: 'Tunes API' } });
  });
});
