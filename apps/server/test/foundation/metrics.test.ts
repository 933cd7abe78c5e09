import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { STORE, withPlans } from '../helpers/factories.js';
import { subscriber } from '../helpers/premium.js';
import { createTestApp, type TestApp } from '../helpers/test-app.js';

const TOKEN = 'metrics-token-for-tests-0123456789';

describe('GET /metrics', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ METRICS_TOKEN: TOKEN });
    await withPlans(t);
  });
  afterAll(async () => {
    await t.close();
  });

  it('refuses a caller without the token, or with another', async () => {
    expect((await t.app.inject({ method: 'GET', url: '/metrics' })).statusCode).toBe(401);
    const wrong = await t.app.inject({
      method: 'GET',
      url: '/metrics',
      headers: { authorization: 'Bearer nope' },
    });
    expect(wrong.statusCode).toBe(401);
    expect(wrong.json()).toMatchObject({ error: expect.any(String), message: expect.any(String) });
  });

  it('answers the families an operator watches, in the Prometheus text format', async () => {
    await subscriber(t);
    for (let i = 0; i < 3; i++) {
      await t.app.inject({ method: 'GET', url: '/api/packages/allplans?merchantId=14', headers: STORE });
    }
    await t.app.jobs.runDue();
    const answer = await t.app.inject({
      method: 'GET',
      url: '/metrics',
      headers: { authorization: `Bearer ${TOKEN}` },
    });
    expect(answer.statusCode).toBe(200);
    expect(answer.headers['content-type']).toContain('text/plain');
    const text = answer.body;
    expect(text).toMatch(
      /tunes_http_requests_total\{method="GET",route="\/api\/packages\/allplans",status="200"\} \d+/,
    );
    expect(text).toMatch(
      /tunes_http_request_duration_seconds_bucket\{le="0\.005",method="GET",route="\/api\/packages\/allplans"/,
    );
    expect(text).toMatch(/tunes_payments_total\{method="card",kind="purchase",outcome="paid"\} \d+/);
    expect(text).toMatch(/tunes_job_queue_depth\{queue="billing\.renew"\} 0/);
    expect(text).toMatch(/tunes_outbox_backlog\{state="retrying"\} 0/);
    expect(text).toMatch(/tunes_process_cpu_user_seconds_total \d/);
    // Raw URLs never become labels: they would carry ids and codes.
    expect(text).not.toContain('merchantId=14');
  });
});

describe('without METRICS_TOKEN', () => {
  it('has no /metrics at all', async () => {
    const t = await createTestApp();
    try {
      expect((await t.app.inject({ method: 'GET', url: '/metrics' })).statusCode).toBe(404);
    } finally {
      await t.close();
    }
  });
});
