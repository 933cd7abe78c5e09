import type { Deps } from '../../deps.js';
import './tables.js';

export interface CacheItem {
  key: string;
  value: string;
}

/** product.md §7 `cache/item`: keeps one value per user and key; a second save replaces the first. */
export async function saveCacheItem(
  deps: Pick<Deps, 'db' | 'clock'>,
  userId: string,
  { key, value }: CacheItem,
): Promise<CacheItem> {
  const now = deps.clock.now();
  await deps.db
    .insertInto('cache_items')
    .values({ user_id: userId, key, value, updated_at: now })
    .onConflict((oc) => oc.columns(['user_id', 'key']).doUpdateSet({ value, updated_at: now }))
    .execute();
  return { key, value };
}
