/** The comparison rows (product.md §2): Free has only the first, Premium all seven. */
export const COMPARISON_FEATURES = [
  'listen',
  'skips',
  'plays',
  'offline',
  'no-ads',
  'downloads',
  'playlists',
] as const;

/** The six feature lines of every plan card: what Premium adds. */
export const PLAN_FEATURES = COMPARISON_FEATURES.slice(1);
