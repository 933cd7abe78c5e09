import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ManualClock } from '../../src/lib/clock.js';
import { DatabaseThrottle, RedisThrottle, type Throttle } from '../../src/lib/throttle.js';
import { createTestApp, type TestApp, testDatabaseKind } from '../helpers/test-app.js';

/**
 * The one throttle every limit goes through (security.md), on the database of this run and on
 * Redis when REDIS_URL is set (CI sets it): 1,000 takes at once are judged like 1,000 in a row.
 */
let t: TestApp;
let redis: Redis | undefined;
const clock = new ManualClock();
beforeAll(async () => {
  t = await createTestApp();
  const url = process.env.REDIS_URL;
  if (url) redis = new Redis(url, { maxRetriesPerRequest: 1 });
});
afterAll(async () => {
  await t.close();
  await redis?.quit();
});

const backends: [string, () => Throttle][] = [
  ['database', () => new DatabaseThrottle(t.db, clock)],
  ...(process.env.REDIS_URL
    ? [
        [
          'redis',
          () => new RedisThrottle(redis as Redis, clock, `test-throttle:${process.pid}:${Date.now()}:`),
        ] as [string, () => Throttle],
      ]
    : []),
];

describe.each(backends)('the throttle on %s', (name, make) => {
  const limit = { limit: 5, windowSeconds: 60 };
  // PGlite runs one transaction at a time: there the takes cannot race, and 200 prove the count as
  // well as 1,000. PostgreSQL and Redis, where they can race, take the whole burst.
  const burst = name === 'database' && testDatabaseKind === 'pglite' ? 200 : 1000;
  let throttle: Throttle;
  beforeAll(() => {
    throttle = make();
  });

  it(`allows exactly the limit of ${burst.toLocaleString('en')} takes at once, and counts no refused take`, async () => {
    const key = `burst-${Math.random()}`;
    const takes = await Promise.all(Array.from({ length: burst }, () => throttle.take(key, limit)));
    expect(takes.filter((take) => take.allowed)).toHaveLength(5);
    expect(new Set(takes.filter((take) => take.allowed).map((take) => take.count))).toEqual(
      new Set([1, 2, 3, 4, 5]),
    );
    const refused = takes.find((take) => !take.allowed);
    expect(refused).toMatchObject({ count: 5, retryAfterSeconds: 60 });
  });

  it('opens the window at the first take and frees the key when it ends', async () => {
    const key = `window-${Math.random()}`;
    clock.advance(17_000); // not on a minute boundary: the window is the key's own
    for (let take = 0; take < 5; take++) expect((await throttle.take(key, limit)).allowed).toBe(true);
    clock.advance(59_000);
    expect(await throttle.take(key, limit)).toMatchObject({ allowed: false, retryAfterSeconds: 1 });
    clock.advance(1_000);
    expect(await throttle.take(key, limit)).toMatchObject({ allowed: true, count: 1 });
  });

  it('gives a take back on refund, and forgets the key on reset', async () => {
    const key = `refund-${Math.random()}`;
    for (let take = 0; take < 5; take++) await throttle.take(key, limit);
    await throttle.refund(key);
    expect(await throttle.take(key, limit)).toMatchObject({ allowed: true, count: 5 });
    expect((await throttle.take(key, limit)).allowed).toBe(false);
    await throttle.reset(key);
    expect(await throttle.take(key, limit)).toMatchObject({ allowed: true, count: 1 });
  });
});

describe('ended windows in the database', () => {
  it('are forgotten by the job scan, while live ones keep counting', async () => {
    const throttle = t.deps.throttle;
    if (!(throttle instanceof DatabaseThrottle)) return; // Redis expires its own keys
    const ended = `sweep-ended-${Math.random()}`;
    const live = `sweep-live-${Math.random()}`;
    await throttle.take(ended, { limit: 5, windowSeconds: 60 });
    await throttle.take(live, { limit: 5, windowSeconds: 3600 });
    t.clock.advance(61_000);
    await t.app.jobs.runDue();
    const keys = await t.db.selectFrom('throttles').select('key').where('key', 'in', [ended, live]).execute();
    expect(keys.map((row) => row.key)).toEqual([live]);
    expect(await throttle.take(live, { limit: 5, windowSeconds: 3600 })).toMatchObject({ count: 2 });
  });
});
