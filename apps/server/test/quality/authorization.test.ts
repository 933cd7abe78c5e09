import { randomUUID } from 'node:crypto';
import { afterAll, describe, expect, it } from 'vitest';
import { AccessTokens } from '../../src/lib/access-tokens.js';
import { bearer } from '../helpers/factories.js';
import { createTestApp } from '../helpers/test-app.js';
import type { RequestInput } from './helpers/inputs.js';
import { listApiOperations, type Operation } from './helpers/openapi.js';
import { errorShapeProblem, send, validInput } from './helpers/requests.js';
import { changedTables, snapshotData } from './helpers/snapshot.js';
import { buildWorld } from './helpers/world.js';

/**
 * api.md and §7: calls that need a user take a bearer token, and a user may only read or
 * change what is theirs. Every operation that answers 401 without a token (or declares bearer
 * security) is called with no token, expired, tampered, forged and malformed tokens, and with
 * another user's valid token against the owner's data.
 * Engine-neutral: when `npm test` runs both engines, only PostgreSQL's layer runs it (scripts/test.mjs).
 */
const t = await createTestApp();
const world = await buildWorld(t.db, t.clock.now());
const operations = await listApiOperations(t.app);
afterAll(async () => {
  await t.close();
});

const ownerToken = await t.deps.accessTokens.sign(world.owner.id, t.clock.now().getTime());
const [header, payload, signature] = ownerToken.split('.') as [string, string, string];
const base64url = (value: object) => Buffer.from(JSON.stringify(value)).toString('base64url');
const claims = JSON.parse(Buffer.from(payload, 'base64url').toString()) as Record<string, unknown>;
const ttlMs = t.config.ACCESS_TOKEN_TTL_SECONDS * 1000;

const BAD_CREDENTIALS: [string, Record<string, string>][] = [
  ['no token', {}],
  ['an expired token', bearer(await t.deps.accessTokens.sign(world.owner.id, Date.now() - 2 * ttlMs))],
  [
    "a token whose subject was changed to another user's",
    bearer(`${header}.${base64url({ ...claims, sub: world.stranger.id })}.${signature}`),
  ],
  [
    'a token with a tampered signature',
    bearer(`${header}.${payload}.${signature.slice(0, -4)}${signature.endsWith('AAAA') ? 'BBBB' : 'AAAA'}`),
  ],
  [
    'a token signed with another secret',
    bearer(await new AccessTokens(`forged-${'x'.repeat(40)}`, 900).sign(world.owner.id)),
  ],
  ['an unsigned ("alg": "none") token', bearer(`${base64url({ alg: 'none', typ: 'JWT' })}.${payload}.`)],
  ['a token that is not a JWT', bearer('not-a-token')],
  ['a Basic credential', { authorization: `Basic ${Buffer.from('owner:password').toString('base64')}` }],
  ['an empty Bearer', { authorization: 'Bearer ' }],
];

/** The same request aimed at ids nobody owns, so probing has no side effect on the world. */
function probeInput(operation: Operation): RequestInput {
  const input = validInput(operation, world);
  const pathParams = Object.fromEntries(
    Object.entries(input.pathParams).map(([name, value]) => [name, isWorldId(value) ? randomUUID() : value]),
  );
  return { ...input, pathParams };
}

const worldIds = new Set([world.owner.id, world.member.id, world.stranger.id, world.subscriptionId]);
const isWorldId = (value: string) => worldIds.has(value);

/** Append-only logs of attempts, which a refused server-to-server call may add to. */
const AUDIT_TABLES = new Set(['payment_logs']);

interface Guarded {
  operation: Operation;
  /** A valid bearer token gets past the guard; false for calls guarded by another credential. */
  acceptsBearer: boolean;
}

const guarded: Guarded[] = [];
const open: Operation[] = [];
for (const operation of operations) {
  const probe = probeInput(operation);
  const anonymous = await send(t.app, operation, probe, {});
  if (anonymous.statusCode !== 401 && !operation.declaresSecurity) {
    open.push(operation);
    continue;
  }
  const withToken = await send(t.app, operation, probe, bearer(ownerToken));
  guarded.push({ operation, acceptsBearer: withToken.statusCode !== 401 });
}

it('guards every call on a user, a subscription or "me" with a credential', () => {
  const personal = /\{(sub|userId|subscriptionId)\}|\/me\/|\/subscription\/\{id\}/;
  expect(
    open.filter((operation) => personal.test(operation.path)).map((operation) => operation.label),
  ).toEqual([]);
  expect(guarded.length).toBeGreaterThan(0);
});

describe.each(guarded.map((entry) => [entry.operation.label, entry] as const))(
  '%s',
  (_, { operation, acceptsBearer }) => {
    const input = validInput(operation, world);

    it.each(BAD_CREDENTIALS)(
      'refuses %s with 401 in the error shape and changes nothing',
      async (_name, headers) => {
        const before = await snapshotData(t.db);
        const response = await send(t.app, operation, input, headers);
        expect(response.statusCode).toBe(401);
        expect(errorShapeProblem(response)).toBeUndefined();
        const changed = changedTables(before, await snapshotData(t.db));
        // A call guarded by its own signature (payment callback) may log the refused attempt.
        expect(acceptsBearer ? changed : changed.filter((table) => !AUDIT_TABLES.has(table))).toEqual([]);
      },
    );

    const targetsOwnersData =
      acceptsBearer &&
      [...Object.values(input.pathParams), ...Object.values(input.query)].some(
        (value) => value === world.owner.id || value === world.subscriptionId || value === world.member.id,
      );
    if (targetsOwnersData) {
      it("refuses another user's valid token on the owner's data with 403 or 404 and changes nothing", async () => {
        const before = await snapshotData(t.db);
        const strangerToken = await t.deps.accessTokens.sign(world.stranger.id, t.clock.now().getTime());
        const response = await send(t.app, operation, input, bearer(strangerToken));
        expect([403, 404]).toContain(response.statusCode);
        expect(errorShapeProblem(response)).toBeUndefined();
        expect(changedTables(before, await snapshotData(t.db))).toEqual([]);
      });
    }
  },
);
