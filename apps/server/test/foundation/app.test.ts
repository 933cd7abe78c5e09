import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { bearer, createUser, STORE } from '../helpers/factories.js';
import { createTestApp, type TestApp, testDatabaseKind } from '../helpers/test-app.js';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => {
  await t.close();
});

describe('server basics', () => {
  it('reports health with the database it uses', async () => {
    const response = await t.app.inject({ method: 'GET', url: '/api/health', headers: STORE });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({ status: 'ok', database: testDatabaseKind });
    expect(response.headers['x-request-id']).toMatch(/^[\w-]{8,}$/);
  });

  it('answers an unknown API path with 404 in the one error shape', async () => {
    const response = await t.app.inject({ method: 'GET', url: '/api/no-such-thing' });
    expect(response.statusCode).toBe(404);
    expect(response.json()).toMatchObject({ error: 'not_found', message: expect.any(String) });
  });

  it('sends an API answer the security headers of an API: nothing may load in it or frame it', async () => {
    const response = await t.app.inject({ method: 'GET', url: '/api/health' });
    expect(response.headers['content-security-policy']).toBe("default-src 'none';frame-ancestors 'none'");
    expect(response.headers['x-frame-options']).toBe('DENY');
    expect(response.headers['x-content-type-options']).toBe('nosniff');
    expect(response.headers['cross-origin-resource-policy']).toBe('same-origin');
    expect(response.headers).not.toHaveProperty('cross-origin-opener-policy');
  });

  it("keeps a signed-in user's answers out of every cache, and not a public one", async () => {
    const user = await createUser(t.db);
    const token = await t.deps.accessTokens.sign(user.id);
    const profile = await t.app.inject({
      method: 'GET',
      url: `/api/users/${user.id}/profile`,
      headers: bearer(token),
    });
    expect(profile.statusCode).toBe(200);
    expect(profile.headers['cache-control']).toBe('no-store');
    const someoneElse = await t.app.inject({
      method: 'GET',
      url: `/api/users/${crypto.randomUUID()}/profile`,
      headers: bearer(token),
    });
    expect(someoneElse.statusCode).toBe(403);
    expect(someoneElse.headers['cache-control']).toBe('no-store');
    const publicAnswer = await t.app.inject({ method: 'GET', url: '/api/health' });
    expect(publicAnswer.headers['cache-control']).toBeUndefined();
  });

  it("sends a page the site's policy: its own scripts, the video players' frames, framed only by itself", async () => {
    const page = await t.app.inject({ method: 'GET', url: '/terms' });
    expect(page.headers['content-security-policy']).toContain("frame-ancestors 'self'");
    expect(page.headers['content-security-policy']).toContain('frame-src https://www.youtube.com');
    expect(page.headers['cross-origin-opener-policy']).toBe('same-origin');
    expect(page.headers['x-content-type-options']).toBe('nosniff');
  });

  it('serves the OpenAPI document generated from the route schemas', async () => {
    const response = await t.app.inject({ method: 'GET', url: '/api/docs/json' });
    expect(response.statusCode).toBe(200);
    const document = response.json() as { openapi: string; paths: Record<string, unknown> };
    expect(document.openapi).toMatch(/^3\./);
    expect(document.paths).toHaveProperty('/api/health');
  });

  it('refuses a malformed JSON body with 400, not 500', async () => {
    const response = await t.app.inject({
      method: 'POST',
      url: '/api/health',
      headers: { 'content-type': 'application/json' },
      payload: '{"broken":',
    });
    expect(response.statusCode).toBeGreaterThanOrEqual(400);
    expect(response.statusCode).toBeLessThan(500);
    expect(response.json()).toMatchObject({ error: expect.any(String), message: expect.any(String) });
  });
});

describe('start-up', () => {
  it('holds API calls until the database is ready, then answers them', async () => {
    const { buildApp } = await import('../../src/app.js');
    let markReady = () => {};
    const databaseReady = new Promise<void>((resolve) => {
      markReady = resolve;
    });
    const app = await buildApp({ ...t.deps, databaseReady }, { logLevel: 'silent' });
    try {
      let answered = false;
      const health = app.inject({ method: 'GET', url: '/api/health' }).then((response) => {
        answered = true;
        return response;
      });
      await new Promise((resolve) => setTimeout(resolve, 200));
      expect(answered).toBe(false);
      markReady();
      expect((await health).statusCode).toBe(200);
    } finally {
      await app.close();
    }
  });
});

describe('validation errors', () => {
  it('name the bad field with status 400', async () => {
    const { buildApp } = await import('../../src/app.js');
    const app = await buildApp(t.deps, { logLevel: 'silent' });
    app.register(
      async (api) => {
        api
          .withTypeProvider<import('fastify-type-provider-zod').ZodTypeProvider>()
          .post(
            '/echo',
            { schema: { body: z.object({ email: z.string().email() }) } },
            async (request) => request.body,
          );
      },
      { prefix: '/api/test' },
    );
    const response = await app.inject({ method: 'POST', url: '/api/test/echo', payload: { email: 'nope' } });
    expect(response.statusCode).toBe(400);
    expect(response.json()).toMatchObject({ error: 'bad_request', field: 'email' });
    await app.close();
  });
});
