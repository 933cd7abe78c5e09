import type { QueryClient } from '@tanstack/react-query';

/** After a billing change the profile, the next charge and the history are read again. */
export function refreshBilling(queryClient: QueryClient): Promise<unknown> {
  return Promise.all(
    ['profile', 'billing', 'payments'].map((key) => queryClient.invalidateQueries({ queryKey: [key] })),
  );
}
