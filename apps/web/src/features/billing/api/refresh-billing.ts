import type { QueryClient } from '@tanstack/react-query';

/**
 * After a billing change everything the page shows is read again: the profile, the next charge
 * and the history, and what other features derive from the plan (a Family plan's seats after an
 * upgrade), without this feature naming their queries.
 */
export function refreshBilling(queryClient: QueryClient): Promise<unknown> {
  return queryClient.invalidateQueries();
}
