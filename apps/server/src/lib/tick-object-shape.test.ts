import { describe, expect, it } from 'vitest';
import { keepTickObjectShape } from './tick-object-shape.js';

describe('keeping a tick entry alive', () => {
  it("holds one of process.nextTick's queue entries: two computed keys, then callback and args", () => {
    const kept = keepTickObjectShape() as Record<PropertyKey, unknown> | undefined;
    expect(kept).toBeDefined();
    expect(Object.getOwnPropertySymbols(kept).map(String)).toEqual([
      'Symbol(async_id_symbol)',
      'Symbol(trigger_async_id_symbol)',
    ]);
    expect(Object.keys(kept ?? {})).toEqual(['callback', 'args']);
    expect(typeof kept?.callback).toBe('function');
  });

  it('takes it once: later calls and later ticks keep the same entry, and ticks still run', async () => {
    const first = keepTickObjectShape();
    const ran = await new Promise<string>((resolve) => process.nextTick(resolve, 'ran'));
    expect(ran).toBe('ran');
    expect(keepTickObjectShape()).toBe(first);
  });
});
