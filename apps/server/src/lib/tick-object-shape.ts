import { createHook } from 'node:async_hooks';

let kept: object | undefined;

/**
 * Keeps one of `process.nextTick`'s queue entries alive for the life of the process, so that V8
 * keeps the hidden classes ("maps") all of them share (decision 0029).
 *
 * node:http schedules ~8 ticks per answer. Each tick is an object literal whose first two keys
 * are computed (`{ [async_id_symbol]: …, [trigger_async_id_symbol]: …, callback, args }`), and V8
 * records a single map for such a key: once a second one is seen, that store goes through the
 * runtime in every later call, optimised or not. Some server processes fell into that state at
 * random (likely: a full garbage collection while no tick was queued freed the maps, so the next
 * tick built new ones) and then ran every answer ~3–4 µs (15–20 %) slower for the rest of their
 * life, 21–23 against 17–18 µs for a cached landing answer (docs/performance.md, "Round
 * twelve"). With one tick kept, 18 starts of 18 were the fast kind.
 *
 * The entry is taken through an async hook that is enabled for one `process.nextTick` call (its
 * init runs inside the call) and disabled at once, so no hook runs afterwards. Returns the kept
 * entry; later calls return the same one.
 */
export function keepTickObjectShape(): object | undefined {
  if (kept) return kept;
  const hook = createHook({
    init(_asyncId, type, _triggerAsyncId, resource) {
      if (type === 'TickObject' && !kept) kept = resource;
    },
  });
  hook.enable();
  try {
    process.nextTick(() => {});
  } finally {
    hook.disable();
  }
  return kept;
}
