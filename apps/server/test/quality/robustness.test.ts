import fc from 'fast-check';
import { afterAll, describe, expect, it } from 'vitest';
import { createTestApp } from '../helpers/test-app.js';
import {
  arbitraryBadInput,
  badCases,
  hostileButValid,
  isInvalid,
  type RequestInput,
} from './helpers/inputs.js';
import { listApiOperations, type Operation } from './helpers/openapi.js';
import {
  errorShapeProblem,
  refusalProblem as refusedProblem,
  send,
  sendRaw,
  validInput,
} from './helpers/requests.js';
import { changedTables, snapshotData } from './helpers/snapshot.js';
import { buildWorld } from './helpers/world.js';

/**
 * api.md: bad input never produces a 500 and never changes stored data. Every `/api`
 * operation of the OpenAPI document is fed input its own schema forbids; the answer must be a
 * 4xx in the one error shape, and a digest of every table must be the same afterwards.
 * Requests carry a real owner's token, so they reach as deep as bad input can go.
 * Engine-neutral: when `npm test` runs both engines, only PostgreSQL's layer runs it (scripts/test.mjs).
 */
const t = await createTestApp();
const world = await buildWorld(t.db, t.clock.now());
const operations = await listApiOperations(t.app);
const ownerHeaders = await t.authHeader(world.owner.id);
afterAll(async () => {
  await t.close();
});

/** Bounded so the suite stays fast on two cores: a few thousand requests in all. */
const PROPERTY_RUNS = 25;
const WRITES: Operation['method'][] = ['POST', 'PUT', 'PATCH', 'DELETE'];

/**
 * For an operation that answers everything alike: anything but 200 `SUCCESS` is a problem, but
 * for a body over the size limit, refused (413) before any route runs.
 */
function acceptedAlikeProblem(response: { statusCode: number; body: string }): string | undefined {
  return (response.statusCode === 200 && response.body === 'SUCCESS') || response.statusCode === 413
    ? undefined
    : `answered ${response.statusCode}: ${response.body.slice(0, 120)}`;
}

async function expectRefusedWithoutChange(run: (report: (problem: string) => void) => Promise<void>) {
  const before = await snapshotData(t.db);
  const problems: string[] = [];
  await run((problem) => problems.push(problem));
  expect(problems).toEqual([]);
  expect(changedTables(before, await snapshotData(t.db))).toEqual([]);
}

it('starts from the demo data every module seeds', () => {
  expect(world.seedFailures).toEqual([]);
});

it('finds the API operations in the OpenAPI document', () => {
  expect(operations.map((operation) => operation.label)).toContain('GET /api/health');
});

/**
 * Operations whose contract is to answer every input alike: QPay calls its callback again until
 * it reads 200 `SUCCESS`, so the callback says that to anything — and, being unbelieved, only
 * ever makes the server ask QPay. For them bad input must still change nothing and never 5xx.
 */
const ANSWERS_EVERYTHING = new Set(['GET /api/payments/qpay/callback', 'POST /api/payments/qpay/callback']);

describe.each(operations.map((operation) => [operation.label, operation] as const))('%s', (_, operation) => {
  const valid = validInput(operation, world);
  const refusalProblem = ANSWERS_EVERYTHING.has(operation.label) ? acceptedAlikeProblem : refusedProblem;

  it('refuses every schema-breaking input with a 4xx in the error shape and changes no stored data', async () => {
    await expectRefusedWithoutChange(async (report) => {
      for (const { name, input } of badCases(operation, valid)) {
        const problem = refusalProblem(await send(t.app, operation, input, ownerHeaders));
        if (problem) report(`${name}: ${problem}`);
      }
    });
  });

  it('refuses generated input (fast-check) that breaks the schema, without a 5xx or a change', async () => {
    await expectRefusedWithoutChange(async (report) => {
      await fc.assert(
        fc.asyncProperty(arbitraryBadInput(operation, valid), async (input: RequestInput) => {
          if (!isInvalid(operation, input)) return; // valid by chance: not bad input
          const problem = refusalProblem(await send(t.app, operation, input, ownerHeaders));
          if (problem) report(`${JSON.stringify(input).slice(0, 300)}: ${problem}`);
        }),
        { numRuns: PROPERTY_RUNS, seed: 20261127 },
      );
    });
  });

  if (WRITES.includes(operation.method)) {
    it('refuses broken JSON, prototype pollution, oversized bodies and wrong content types', async () => {
      const raw: [string, string, string][] = [
        ['broken JSON', '{"broken":', 'application/json'],
        [
          'prototype pollution',
          '{"__proto__":{"isAdmin":true},"constructor":{"prototype":{"x":1}}}',
          'application/json',
        ],
        ['a 100 KB JSON body', JSON.stringify({ padding: 'x'.repeat(100_000) }), 'application/json'],
        ['a 100 KB form body', `padding=${'x'.repeat(100_000)}`, 'application/x-www-form-urlencoded'],
        ['XML', '<?xml version="1.0"?><a>1</a>', 'application/xml'],
        [
          'multipart',
          '--x\r\nContent-Disposition: form-data; name="a"\r\n\r\n1\r\n--x--',
          'multipart/form-data; boundary=x',
        ],
      ];
      if (operation.body && !operation.body.contentType.includes('form')) {
        raw.push(['a JSON body sent as text/plain', JSON.stringify(valid.body), 'text/plain']);
      }
      await expectRefusedWithoutChange(async (report) => {
        for (const [name, payload, contentType] of raw) {
          const problem = refusalProblem(
            await sendRaw(t.app, operation, valid, ownerHeaders, payload, contentType),
          );
          if (problem) report(`${name}: ${problem}`);
        }
      });
    });
  }
});

describe('hostile text the schemas accept (SQL, script, unicode) is handled, never a 5xx', () => {
  it.each(operations.map((operation) => [operation.label, operation] as const))(
    '%s',
    async (_, operation) => {
      const valid = validInput(operation, world);
      const problems: string[] = [];
      const attempt = async (where: string, input: RequestInput) => {
        const response = await send(t.app, operation, input, ownerHeaders);
        const problem =
          response.statusCode >= 500
            ? `server error ${response.statusCode}: ${response.body.slice(0, 200)}`
            : response.statusCode >= 400
              ? errorShapeProblem(response)
              : undefined;
        if (problem) problems.push(`${where}: ${problem}`);
      };
      for (const parameter of operation.pathParams) {
        for (const value of hostileButValid(parameter.schema, true)) {
          await attempt(`path ${parameter.name}=${JSON.stringify(value)}`, {
            ...valid,
            pathParams: { ...valid.pathParams, [parameter.name]: value },
          });
        }
      }
      for (const parameter of operation.query) {
        for (const value of hostileButValid(parameter.schema, true)) {
          await attempt(`query ${parameter.name}=${JSON.stringify(value)}`, {
            ...valid,
            query: { ...valid.query, [parameter.name]: value },
          });
        }
      }
      const body = operation.body;
      if (body && valid.body && typeof valid.body === 'object') {
        for (const [key, schema] of Object.entries(body.schema.properties ?? {})) {
          for (const value of hostileButValid(schema, body.contentType.includes('form'))) {
            await attempt(`body ${key}=${JSON.stringify(value)}`, {
              ...valid,
              body: { ...(valid.body as Record<string, unknown>), [key]: value },
            });
          }
        }
      }
      expect(problems).toEqual([]);
    },
  );
});
