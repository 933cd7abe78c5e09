import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { API_ERROR_CODES } from '@tunes/shared/error-codes';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AppError, badRequest, conflict } from '../../src/lib/errors.js';
import { grantError } from '../../src/modules/accounts/tokens.js';
import { createTestApp, type TestApp } from '../helpers/test-app.js';

const srcDir = fileURLToPath(new URL('../../src', import.meta.url));
const catalogue = new Set<string>(Object.values(API_ERROR_CODES));
const byName = new Map<string, string>(Object.entries(API_ERROR_CODES));

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(full);
    return entry.name.endsWith('.ts') && !entry.name.endsWith('.test.ts') ? [full] : [];
  });
}

/**
 * The places a code is written: a catalogue constant, or a literal as an error body's `error` (a
 * reply sent by hand is not type-checked against the catalogue) or the error helpers' code.
 */
const CODE_LITERALS = [
  /\b(?:API_)?ERROR_CODES\.(\w+)/g,
  /\berror:\s*'([a-z0-9_]+)'/g,
  /new AppError\(\s*\d{3},\s*'([a-z0-9_]+)'/g,
  /\bgrantError\(\s*\d{3},\s*'([a-z0-9_]+)'/g,
  /\bconflict\(\s*(?:'[^']*'|`[^`]*`),\s*'([a-z0-9_]+)'/g,
  /\bbadRequest\(\s*(?:'[^']*'|`[^`]*`),\s*[^,()]+,\s*'([a-z0-9_]+)'/g,
];

describe('the error codes the server answers', () => {
  it('are all in the catalogue (@tunes/shared/error-codes)', () => {
    const written = sourceFiles(srcDir).flatMap((file) => {
      const code = readFileSync(file, 'utf8');
      return CODE_LITERALS.flatMap((pattern) =>
        [...code.matchAll(pattern)].map(([match, literal = '']) => ({
          file,
          // A constant stands for its value; one the catalogue lacks stays as its name and fails.
          literal: match.includes('ERROR_CODES.') ? (byName.get(literal) ?? literal) : literal,
        })),
      );
    });
    // The patterns still find the codes the server writes out (a check that reads nothing proves nothing).
    expect(written.length).toBeGreaterThan(20);
    const outside = written
      .filter(({ literal }) => !catalogue.has(literal))
      .map(({ file, literal }) => `${path.relative(srcDir, file)}: ${literal}`);
    expect(outside, 'add the code to API_ERROR_CODES (and the site’s texts) first').toEqual([]);
  });

  it('cannot be made up: the helpers take a catalogue code only (checked by tsc)', () => {
    const made = [
      // @ts-expect-error a code outside the catalogue
      new AppError(400, 'made_up_code', 'x'),
      // @ts-expect-error a code outside the catalogue
      conflict('x', 'made_up_code'),
      // @ts-expect-error a code outside the catalogue
      badRequest('x', 'field', 'made_up_code'),
      // @ts-expect-error a code outside the catalogue
      grantError(400, 'made_up_code', 'x'),
    ];
    // The value still travels as given: the guard is the type, the wire stays as it is.
    expect(made.map((error) => error.code)).toEqual(Array(4).fill('made_up_code'));
    expect(conflict('x', API_ERROR_CODES.refundInProgress).code).toBe('refund_in_progress');
  });

  describe('on the wire', () => {
    let t: TestApp;
    beforeAll(async () => {
      t = await createTestApp();
    });
    afterAll(async () => {
      await t.close();
    });

    it('answers the catalogue’s codes, unchanged', async () => {
      const missing = await t.app.inject({ method: 'GET', url: '/api/no-such-call' });
      expect(missing.json()).toMatchObject({ error: API_ERROR_CODES.notFound });
      const withoutHeader = await t.app.inject({
        method: 'POST',
        url: '/api/admin/session',
        payload: { email: 'a@example.com', password: 'x'.repeat(12), code: '000000' },
      });
      expect(withoutHeader.statusCode).toBe(403);
      expect(withoutHeader.json()).toMatchObject({ error: 'csrf_header_missing' });
      expect(catalogue.has(withoutHeader.json().error)).toBe(true);
    });
  });
});
