import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { STORE } from '../helpers/factories.js';
import { createTestApp, type TestApp } from '../helpers/test-app.js';

/**
 * The OpenAPI document marks exactly the operations that need a token: each is called with no
 * token (the token is checked before anything else), and answers 401 if and only if it says so.
 * Engine-neutral: when `npm test` runs both engines, only PostgreSQL's layer runs it (scripts/test.mjs).
 */
let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => {
  await t.close();
});

interface Operation {
  security?: unknown[];
}

describe('the OpenAPI document and the token check', () => {
  it('marks every operation that refuses a caller without a token, and no other', async () => {
    const document = (await t.app.inject({ method: 'GET', url: '/api/docs/json' })).json() as {
      paths: Record<string, Record<string, Operation>>;
    };
    const secured: string[] = [];
    const refused: string[] = [];
    for (const [path, operations] of Object.entries(document.paths)) {
      for (const [method, operation] of Object.entries(operations)) {
        const name = `${method.toUpperCase()} ${path}`;
        if (operation.security?.length) secured.push(name);
        const url = path.replace(/\{[^}]+\}/g, '00000000-0000-4000-8000-000000000000');
        const answer = await t.app.inject({
          method: method.toUpperCase() as 'GET',
          url,
          headers: STORE,
        });
        if (answer.statusCode === 401 && !path.includes('validateHMAC')) refused.push(name);
      }
    }
    expect(secured.length).toBeGreaterThanOrEqual(15);
    expect(secured.sort()).toEqual(refused.sort());
  });
});
