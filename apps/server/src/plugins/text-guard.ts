import type { FastifyInstance, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { badRequest } from '../lib/errors.js';

/** Deeper input than this is not ours to walk; the route schema refuses it anyway. */
const MAX_DEPTH = 8;

/** The dotted path of the first string holding U+0000, or undefined. */
function findNulCharacter(value: unknown, path: string, depth = 0): string | undefined {
  if (typeof value === 'string') return value.includes('\u0000') ? path : undefined;
  if (depth >= MAX_DEPTH || value === null || typeof value !== 'object') return undefined;
  for (const [key, child] of Object.entries(value)) {
    if (key.includes('\u0000')) return path ? `${path}.${key.replaceAll('\u0000', '')}` : 'key';
    const found = findNulCharacter(child, path ? `${path}.${key}` : key, depth + 1);
    if (found !== undefined) return found;
  }
  return undefined;
}

/**
 * PostgreSQL text cannot hold U+0000, so a NUL in any field would otherwise surface as a 500
 * from the database after validation passed. Refuse it up front as bad input naming the field
 * (api.md: bad input never produces a 500).
 */
export const textGuard = fp(
  async (app: FastifyInstance) => {
    app.addHook('preValidation', (request: FastifyRequest, _reply, done) => {
      // A NUL reaches the path or the query only percent-encoded (the HTTP parser refuses a raw
      // one), so a URL without `%00` and a request without a body need no walk: most calls.
      if (request.body === undefined && !request.url.includes('%00')) return done();
      for (const [location, value] of [
        ['params', request.params],
        ['querystring', request.query],
        ['body', request.body],
      ] as const) {
        const field = findNulCharacter(value, '');
        if (field !== undefined) {
          return done(
            badRequest(
              `Invalid ${location}: ${field || location} must not contain a NUL character`,
              field || location,
            ),
          );
        }
      }
      done();
    });
  },
  { name: 'text-guard' },
);
