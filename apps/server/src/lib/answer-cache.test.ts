import { describe, expect, it } from 'vitest';
import { AnswerCache } from './answer-cache.js';

/** A revision the test moves, read through a counter, as the content's or the plans' would be. */
function world() {
  const state = { revision: 1, revisionReads: 0, loads: 0, nowMs: 0 };
  const cache = new AnswerCache(
    async () => {
      state.revisionReads++;
      await new Promise((resolve) => setTimeout(resolve, 5));
      return state.revision;
    },
    () => state.nowMs,
    1000,
  );
  const load = async () => {
    state.loads++;
    await new Promise((resolve) => setTimeout(resolve, 5));
    return { result: [`answer of revision ${state.revision}`] };
  };
  return { state, cache, load };
}

describe('AnswerCache under a burst', () => {
  it('500 requests at once: one revision read and one load, every one the same answer', async () => {
    const { state, cache, load } = world();
    const answers = await Promise.all(Array.from({ length: 500 }, () => cache.get('plans:14', load)));
    expect(state.revisionReads).toBe(1);
    expect(state.loads).toBe(1);
    expect(new Set(answers).size).toBe(1);
    expect(answers[0]?.identity.body?.toString()).toBe('{"result":["answer of revision 1"]}');
  });

  it('500 requests at the turn of the period after a change: one more read, one more load', async () => {
    const { state, cache, load } = world();
    await cache.get('plans:14', load);
    state.revision = 2;
    state.nowMs += 1000;
    const answers = await Promise.all(Array.from({ length: 500 }, () => cache.get('plans:14', load)));
    expect(state.revisionReads).toBe(2);
    expect(state.loads).toBe(2);
    expect(new Set(answers.map((answer) => answer.identity.body?.toString()))).toEqual(
      new Set(['{"result":["answer of revision 2"]}']),
    );
  });

  it('a clock set back (an NTP step) reads the revision again rather than trusting it for longer', async () => {
    const { state, cache, load } = world();
    state.nowMs = 3_600_000;
    await cache.get('plans:14', load);
    state.revision = 2;
    state.nowMs = 0;
    const answer = await cache.get('plans:14', load);
    expect(state.revisionReads).toBe(2);
    expect(answer.identity.body?.toString()).toBe('{"result":["answer of revision 2"]}');
  });

  it('keeps neither a miss nor a failure: the next request loads again', async () => {
    const { cache } = world();
    let calls = 0;
    const missing = async () => {
      calls++;
      return null;
    };
    expect(await cache.get('landing:en', missing)).toBeNull();
    expect(await cache.get('landing:en', missing)).toBeNull();
    expect(calls).toBe(2);

    let failures = 0;
    const failing = async () => {
      failures++;
      throw new Error('the database is away');
    };
    await expect(cache.get('cards:en', failing)).rejects.toThrow('the database is away');
    await expect(cache.get('cards:en', failing)).rejects.toThrow('the database is away');
    expect(failures).toBe(2);
  });
});
