import type { Deps } from '../../deps.js';

/** The Redis channel a publish is announced on, so every API process drops its content copies. */
export const CONTENT_PUBLISHED_CHANNEL = 'tunes:content-published';

const listeners = new WeakMap<Deps, Set<() => void>>();

/** Runs `listener` whenever content is published, in this process or (with Redis) any other. */
export function onContentPublished(deps: Deps, listener: () => void): () => void {
  let set = listeners.get(deps);
  if (!set) {
    set = new Set();
    listeners.set(deps, set);
  }
  set.add(listener);
  return () => set.delete(listener);
}

/**
 * Tells every process that content changed: this one at once, the others through Redis pub/sub
 * when `REDIS_URL` is set. Without Redis (or if the message is lost) the others still see the
 * bumped revision within their cache's TTL (lib/answer-cache.ts).
 */
export async function announceContentPublished(deps: Deps): Promise<void> {
  for (const listener of listeners.get(deps) ?? []) listener();
  await deps.redis?.publish(CONTENT_PUBLISHED_CHANNEL, String(Date.now()));
}
