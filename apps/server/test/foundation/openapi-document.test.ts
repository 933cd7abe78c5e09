import { readFile } from 'node:fs/promises';
import { describe, expect, it } from 'vitest';
import { buildOpenApiDocument } from '../../src/openapi-document.js';

const committed = new URL('../../../../docs/openapi.json', import.meta.url);

/**
 * The committed OpenAPI document is the one the routes generate, and documents every spec call.
 * Engine-neutral: when `npm test` runs both engines, only PostgreSQL's layer runs it (scripts/test.mjs).
 */
describe('docs/openapi.json', () => {
  it('is the document the routes generate (run `npm run docs:api` after changing a route)', async () => {
    const generated = await buildOpenApiDocument();
    const onDisk = JSON.parse(await readFile(committed, 'utf8')) as unknown;
    expect(onDisk).toEqual(JSON.parse(JSON.stringify(generated)));
  });

  it('documents every spec call with its parameters', async () => {
    const { paths } = await buildOpenApiDocument();
    expect(Object.keys(paths)).toEqual(
      expect.arrayContaining([
        '/api/users/requestotp',
        '/api/users/validateotp',
        '/api/oauth2/token',
        '/api/users/{sub}/profile',
        '/api/packages/allplans',
        '/api/payments/checkout',
        '/api/subscription/{id}/invitation-codes/',
        '/api/users/redeemvoucher',
        '/api/landing-page',
        '/api/feedback',
      ]),
    );
    expect(Object.keys(paths).some((route) => route.startsWith('/dev'))).toBe(false);
  });
});
