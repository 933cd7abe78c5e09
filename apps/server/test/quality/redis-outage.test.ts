import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { requestOtp } from '../helpers/accounts.js';
import { randomMsisdn } from '../helpers/factories.js';
import { createTestApp, type TestApp } from '../helpers/test-app.js';

/**
 * Faults survived (issue 39): with the limits' Redis unreachable every limited call answers 503
 * with Retry-After — an honest outage, not a 500 — and fails closed: nothing limited is done.
 */
describe('Redis down', () => {
  let t: TestApp;
  beforeAll(async () => {
    // Nothing listens there: every command fails as when Redis is stopped.
    t = await createTestApp({ REDIS_URL: 'redis://127.0.0.1:6399' });
  });
  afterAll(async () => {
    await t.close();
  });

  it('answers 503 with Retry-After to limited calls, and sends nothing', async () => {
    const msisdn = randomMsisdn();
    const answers = await Promise.all(
      Array.from({ length: 20 }, () => requestOtp(t, { msisdn, language: 'en' })),
    );
    for (const answer of answers) {
      expect(answer.statusCode, answer.body).toBe(503);
      expect(answer.headers['retry-after']).toBe('5');
      expect(answer.json()).toMatchObject({ error: 'service_unavailable' });
    }
    const sent = await t.app.inject({ method: 'GET', url: `/dev/outbox?to=${msisdn}` });
    expect(sent.json()).toEqual([]);
  });
});
